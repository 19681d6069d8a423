-- Loads the Neovim 0.11 snippet of docs/editors.md on a Neovim that may be older: stands in for
-- vim.lsp.config / vim.lsp.enable (and vim.fs.root / vim.fs.dirname, 0.10+) where missing, then
-- asks the snippet's root_dir which buffers it starts the server for. Writes JSON to $SG_E2E_OUT.

local out = assert(os.getenv('SG_E2E_OUT'))
local snippet = assert(os.getenv('SG_E2E_SNIPPET'))
local result = { native = vim.lsp.config ~= nil, enabled = {}, roots = {} }
local configs = {}

if not vim.lsp.config then
  vim.lsp.config = function(name, config)
    configs[name] = config
  end
  vim.lsp.enable = function(name)
    table.insert(result.enabled, name)
  end
end
vim.fs = vim.fs or {}
if not vim.fs.root then
  -- As documented for 0.10+: each marker in order, searched upward from the buffer's file.
  vim.fs.root = function(bufnr, markers)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
    for _, marker in ipairs(markers) do
      local found = vim.fn.finddir(marker, dir .. ';')
      if found == '' then
        found = vim.fn.findfile(marker, dir .. ';')
      end
      if found ~= '' then
        return vim.fn.fnamemodify(vim.fn.fnamemodify(found, ':p'):gsub('/$', ''), ':h')
      end
    end
  end
end
if not vim.fs.dirname then
  vim.fs.dirname = function(path)
    return vim.fn.fnamemodify(path, ':h')
  end
end

local ok, err = pcall(dofile, snippet)
if not ok then
  result.error = tostring(err)
else
  local config = result.native and vim.lsp.config.spec_glossary or configs.spec_glossary
  result.cmd = config.cmd
  result.filetypes = config.filetypes
  result.settings = config.settings
  for name, spec in pairs({ spec = { 'SG_E2E_SPEC', 'markdown' }, seed = { 'SG_E2E_SEED', 'yaml' }, other_yaml = { 'SG_E2E_OTHER_YAML', 'yaml' }, outside = { 'SG_E2E_OUTSIDE', 'markdown' } }) do
    local bufnr = vim.fn.bufadd(os.getenv(spec[1]))
    vim.fn.bufload(bufnr)
    vim.bo[bufnr].filetype = spec[2]
    local root = vim.NIL
    config.root_dir(bufnr, function(dir)
      root = dir or vim.NIL
    end)
    result.roots[name] = root
  end
end
vim.fn.writefile({ vim.fn.json_encode(result) }, out)
vim.cmd('qall!')
