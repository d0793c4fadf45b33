-- A scripted Neovim session against drrc lsp (run by editors/nvim_test.go): the buffer is a rule file with an
-- error. It waits for the diagnostics, hovers an op, applies the quick fix, formats, runs the code lenses
-- "apply to…" (answering the prompt with $DRR_NVIM_PROGRAM) and "view matcher automaton", and writes what it saw
-- to $DRR_NVIM_OUT as JSON. Every step waits with a timeout; a failure is written as "error".
local out = { steps = {} }
local bufnr = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(bufnr)

local function step(name)
  table.insert(out.steps, name)
end

local function wait(what, cond)
  if not vim.wait(30000, cond, 20) then
    error('timed out waiting for ' .. what)
  end
end

local function diagnostics()
  local ds = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(ds, { line = d.lnum + 1, col = d.col + 1, severity = d.severity, message = d.message })
  end
  return ds
end

-- position returns the 0-based position of the first occurrence of text in the buffer, plus delta columns.
local function position(text, delta)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(text, 1, true)
    if col then
      return { line = i - 1, character = col - 1 + (delta or 0) }
    end
  end
  error('no ' .. text .. ' in the buffer')
end

local function request(method, params)
  local res = vim.lsp.buf_request_sync(bufnr, method, params, 30000)
  for _, r in pairs(res or {}) do
    if r.err then
      error(method .. ': ' .. vim.inspect(r.err))
    end
    return r.result
  end
  error(method .. ': no answer')
end

local function buffer_named(pattern)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b):find(pattern, 1, true) then
      return b
    end
  end
end

local ok, err = pcall(function()
  wait('the client to attach', function() return #vim.lsp.buf_get_clients(bufnr) > 0 end)
  step('attached')
  wait('diagnostics', function() return #vim.diagnostic.get(bufnr) > 0 end)
  out.diagnostics = diagnostics()
  step('diagnostics')

  local h = request('textDocument/hover', { textDocument = { uri = uri }, position = position('pd_op.scale', 3) })
  out.hover = h and h.contents and h.contents.value or ''
  step('hover')

  local d = vim.diagnostic.get(bufnr)[1]
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.lnum, character = d.col } },
    context = { diagnostics = {} },
  })
  out.action = actions[1].title
  vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
  wait('the fix to clear the diagnostics', function() return #vim.diagnostic.get(bufnr) == 0 end)
  step('fixed')

  if vim.lsp.buf.format then
    vim.lsp.buf.format({ async = false, timeout_ms = 30000 })
  else
    vim.lsp.buf.formatting_sync(nil, 30000)
  end
  out.formatted = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
  step('formatted')

  vim.lsp.codelens.refresh()
  wait('code lenses', function() return #vim.lsp.codelens.get(bufnr) >= 3 end)
  local lenses = {}
  for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
    lenses[l.command.title] = l.command
  end
  out.lenses = vim.tbl_keys(lenses)
  table.sort(out.lenses)
  step('lenses')

  vim.ui.input = function(opts, answer)
    if opts.prompt:find('passes') then
      answer(os.getenv('DRR_NVIM_PASSES'))
    else
      answer(os.getenv('DRR_NVIM_PROGRAM'))
    end
  end
  vim.lsp.commands[lenses['apply to…'].command](lenses['apply to…'], { bufnr = bufnr })
  wait('the apply report', function() return buffer_named('drr apply') ~= nil end)
  out.apply = table.concat(vim.api.nvim_buf_get_lines(buffer_named('drr apply'), 0, -1, false), '\n')
  step('applied')

  local view = lenses['view matcher automaton']
  vim.lsp.commands[view.command](view, { bufnr = bufnr })
  wait('the automaton', function() return buffer_named('drr automaton') ~= nil end)
  out.view = table.concat(vim.api.nvim_buf_get_lines(buffer_named('drr automaton'), 0, -1, false), '\n')
  step('viewed')
end)
if not ok then
  out.error = tostring(err)
end
local f = assert(io.open(os.getenv('DRR_NVIM_OUT'), 'w'))
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qa!')
