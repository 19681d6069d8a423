-- Drives a headless Neovim through renaming a glossary term as a user does it: the cursor on a
-- use of the term in the spec, vim.lsp.buf.rename(new name) — Neovim applies the server's edit to
-- buffers (loading the glossary file and the other spec, saving nothing) — then :wall. Notes
-- whether the event log exists before the save (it must not: nothing was saved yet) and waits for
-- the rename to be recorded after it. Every wait is vim.wait on a condition. Writes what it saw as
-- JSON to $SG_E2E_OUT and exits 0, or 1 on the first failed step. Neovim 0.7 APIs only.

local common = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/common.lua')
local result, step, clients_of, diagnostics, timeout = common.result, common.step, common.clients_of, common.diagnostics, common.timeout
local seed = assert(os.getenv('SG_E2E_SEED'), 'SG_E2E_SEED is not set')
local log = assert(os.getenv('SG_E2E_LOG'), 'SG_E2E_LOG is not set')
local new_name = assert(os.getenv('SG_E2E_NEW_NAME'), 'SG_E2E_NEW_NAME is not set')

local function buffer_text(path)
  local buf = vim.fn.bufnr(path)
  if buf == -1 or not vim.api.nvim_buf_is_loaded(buf) then
    return nil
  end
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end

local function run()
  local spec = vim.api.nvim_get_current_buf()
  step('attach')
  assert(vim.wait(timeout, function() return #clients_of(spec) > 0 end, 20), 'no language client attached')

  step('rename')
  -- The first use of the term: line 3 ("Each worktree holds ..."), on its "w".
  vim.api.nvim_win_set_cursor(0, { 3, 6 })
  vim.lsp.buf.rename(new_name)
  assert(vim.wait(timeout, function()
    local text = buffer_text(seed)
    return text ~= nil and text:find('surface: ' .. new_name, 1, true) ~= nil
  end, 20), 'the rename never reached a buffer of ' .. seed)
  result.spec_buffer = table.concat(vim.api.nvim_buf_get_lines(spec, 0, -1, false), '\n')
  result.log_before_save = vim.fn.filereadable(log) == 1

  step('save')
  vim.cmd('wall')
  assert(vim.wait(timeout, function()
    return vim.fn.filereadable(log) == 1 and table.concat(vim.fn.readfile(log), '\n'):find('GlossarySenseUpdated', 1, true) ~= nil
  end, 20), 'saving the rename recorded nothing in ' .. log)
  step('done')
end

common.finish(run)
