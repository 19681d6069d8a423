-- Drives a headless Neovim through defining an unknown term as a user of any editor does it:
-- defer it (code action), then "Define '<term>' in the team glossary" (code action: the server adds a
-- draft entry to the seed YAML through workspace/applyEdit and says where), go to that buffer,
-- write the definition over the placeholder, :write — then wait for the spec's diagnostic to go.
-- Every wait is vim.wait on a condition. Writes what it saw as JSON to $SG_E2E_OUT and exits 0,
-- or 1 on the first failed step. Neovim 0.7 APIs only.

local common = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/common.lua')
local result, step, clients_of, diagnostics, timeout = common.result, common.step, common.clients_of, common.diagnostics, common.timeout
result.messages = {}
local seed = assert(os.getenv('SG_E2E_SEED'), 'SG_E2E_SEED is not set')
local definition = assert(os.getenv('SG_E2E_DEFINITION'), 'SG_E2E_DEFINITION is not set')
local log = assert(os.getenv('SG_E2E_LOG'), 'SG_E2E_LOG is not set')
local term = assert(os.getenv('SG_E2E_TERM'), 'SG_E2E_TERM is not set')
local placeholder = '"TODO: define ' .. term .. '"'

-- What the server says (window/showMessage) is kept, then shown as Neovim shows it.
local show_message = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, params, ctx, config)
  table.insert(result.messages, params.message)
  return show_message(err, params, ctx, config)
end

-- Picks the code action titled `title` from the menu the user sees (vim.ui.select).
local function code_action(title)
  local offered
  local chosen
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    for i, item in ipairs(items) do
      local label = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(offered, label)
      if not chosen and label == title then
        chosen = i
      end
    end
    on_choice(chosen and items[chosen] or nil, chosen)
  end
  vim.lsp.buf.code_action()
  assert(vim.wait(timeout, function() return offered ~= nil end, 20), 'the code action menu never opened')
  assert(chosen, 'no code action titled ' .. title .. ' (offered: ' .. table.concat(offered, ' | ') .. ')')
  return offered
end

local function run()
  local spec = vim.api.nvim_get_current_buf()
  result.file = vim.api.nvim_buf_get_name(spec)

  step('attach')
  assert(vim.wait(timeout, function() return #clients_of(spec) > 0 end, 20), 'no language client attached')

  step('diagnostics')
  assert(vim.wait(timeout, function() return #vim.diagnostic.get(spec) > 0 end, 20), 'no diagnostics')
  result.diagnostics = diagnostics(spec)
  local first = vim.diagnostic.get(spec)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })

  step('defer')
  result.defer_titles = code_action("Defer '" .. term .. "' for later clarification")
  assert(vim.wait(timeout, function()
    local now = vim.diagnostic.get(spec)[1]
    return now ~= nil and now.message:find('Deferred since', 1, true) ~= nil
  end, 20), 'the diagnostic never said the term is deferred')
  result.deferred = diagnostics(spec)

  step('define')
  result.define_titles = code_action("Define '" .. term .. "' in the team glossary")
  -- Neovim 0.7 cannot show documents: the edit lands in a buffer of the seed file, and the
  -- server's message says where.
  assert(vim.wait(timeout, function()
    local buf = vim.fn.bufnr(seed)
    return buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) and table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'):find(placeholder, 1, true) ~= nil
  end, 20), 'the draft entry never reached a buffer of ' .. seed)
  assert(vim.wait(timeout, function() return #result.messages > 0 end, 20), 'the server said nothing about where the entry went')

  step('write the definition')
  vim.cmd('buffer ' .. vim.fn.fnameescape(seed))
  local buf = vim.api.nvim_get_current_buf()
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local at = line:find(placeholder, 1, true)
    if at then
      vim.api.nvim_buf_set_lines(buf, i - 1, i, false, { line:sub(1, at - 1) .. definition .. line:sub(at + #placeholder) })
    end
  end
  vim.cmd('write')
  result.seed_text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')

  step('recorded')
  assert(vim.wait(timeout, function()
    return vim.fn.filereadable(log) == 1 and table.concat(vim.fn.readfile(log), '\n'):find('GlossarySenseUpdated', 1, true) ~= nil
  end, 20), 'saving the definition recorded nothing in ' .. log)

  step('diagnostic gone')
  vim.cmd('buffer ' .. spec)
  local cleared = vim.wait(timeout, function() return #vim.diagnostic.get(spec) == 0 end, 20)
  result.diagnostics_after = diagnostics(spec)
  assert(cleared, 'the diagnostic is still there after saving the definition')
  step('done')
end

common.finish(run)
