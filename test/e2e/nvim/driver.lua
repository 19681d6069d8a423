-- Drives a headless Neovim through what a user does on a spec: wait for the diagnostics, hover
-- the flagged term, open the code actions and choose one (through vim.ui.select, the menu the
-- user sees), then wait for the diagnostic to go away. Every wait is vim.wait on a condition.
-- Writes what it saw as JSON to $SG_E2E_OUT and exits 0, or 1 on the first failed step.
--
-- Works with Neovim 0.7 and later (only APIs that 0.7 has, none removed since).

local common = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/common.lua')
local result, step, clients_of, diagnostics, timeout = common.result, common.step, common.clients_of, common.diagnostics, common.timeout
local pick = assert(os.getenv('SG_E2E_PICK'), 'SG_E2E_PICK is not set')

local function hover_text(responses)
  local parts = {}
  for _, response in pairs(responses or {}) do
    local contents = response.result and response.result.contents
    if type(contents) == 'table' then
      if contents.value then
        table.insert(parts, contents.value)
      else
        for _, item in ipairs(contents) do
          table.insert(parts, type(item) == 'table' and item.value or item)
        end
      end
    elseif type(contents) == 'string' then
      table.insert(parts, contents)
    end
  end
  return table.concat(parts, '\n')
end

local function run()
  local bufnr = vim.api.nvim_get_current_buf()
  result.file = vim.api.nvim_buf_get_name(bufnr)
  result.filetype = vim.bo[bufnr].filetype

  step('attach')
  local attached = vim.wait(timeout, function()
    return #clients_of(bufnr) > 0
  end, 20)
  assert(attached, 'no language client attached to ' .. result.file)
  local client = clients_of(bufnr)[1]
  result.client = client.name

  step('diagnostics')
  local published = vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  result.diagnostics = diagnostics(bufnr)
  assert(published, 'no diagnostics within ' .. timeout .. ' ms')
  local first = vim.diagnostic.get(bufnr)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })

  step('hover')
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', vim.lsp.util.make_position_params(0, client.offset_encoding), timeout)
  result.hover = hover_text(responses)

  step('code action')
  local chosen
  vim.ui.select = function(items, opts, on_choice)
    result.action_titles = {}
    for i, item in ipairs(items) do
      local title = opts.format_item and (opts.format_item(item)) or tostring(item)
      table.insert(result.action_titles, title)
      if not chosen and title == pick then
        chosen = i
      end
    end
    if chosen then
      on_choice(items[chosen], chosen)
    else
      on_choice(nil, nil)
    end
  end
  vim.lsp.buf.code_action()
  local offered = vim.wait(timeout, function()
    return result.action_titles ~= nil
  end, 20)
  assert(offered, 'the code action menu never opened')
  assert(chosen, 'no code action titled ' .. pick)

  step('diagnostic gone')
  local cleared = vim.wait(timeout, function()
    return #vim.diagnostic.get(bufnr) == 0
  end, 20)
  result.diagnostics_after = diagnostics(bufnr)
  assert(cleared, 'the diagnostics are still there ' .. timeout .. ' ms after the quick fix')

  local outside = os.getenv('SG_E2E_OUTSIDE')
  if outside then
    -- A markdown file outside every project: the snippet starts no server for it.
    step('outside a project')
    vim.cmd('edit ' .. vim.fn.fnameescape(outside))
    local other = vim.api.nvim_get_current_buf()
    vim.wait(1000, function()
      return #clients_of(other) > 0
    end, 20)
    result.outside_clients = #clients_of(other)
  end
  step('done')
end

common.finish(run)
