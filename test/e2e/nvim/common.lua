-- What the end-to-end drivers (driver.lua, define.lua, rename.lua) share: the result they write,
-- the steps they note, the clients of a buffer, its diagnostics, and how a run ends (the result
-- as JSON to $SG_E2E_OUT, exit 0, or 1 on the first failed step). Loaded with dofile from the
-- driver's own folder. Neovim 0.7 APIs only.

local M = {}

M.out = assert(os.getenv('SG_E2E_OUT'), 'SG_E2E_OUT is not set')
M.timeout = tonumber(os.getenv('SG_E2E_TIMEOUT_MS') or '20000')
M.result = { nvim = vim.version(), steps = {} }

function M.step(name)
  table.insert(M.result.steps, name)
end

-- The clients attached to a buffer (vim.lsp.get_clients from 0.10, buf_get_clients before).
function M.clients_of(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
end

-- A buffer's diagnostics as the tests read them (the code as the server sent it).
function M.diagnostics(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(list, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
      code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or vim.NIL,
    })
  end
  return list
end

-- Runs the driver's steps, writes what it saw and quits Neovim.
function M.finish(run)
  local ok, err = xpcall(run, debug.traceback)
  if not ok then
    M.result.error = tostring(err)
  end
  vim.fn.writefile({ vim.fn.json_encode(M.result) }, M.out)
  vim.cmd(ok and 'qall!' or 'cquit! 1')
end

return M
