-- drr: .drr rule files in Neovim, with the language server drrc lsp.
--
--   require('drr').setup()                                  -- drrc on $PATH
--   require('drr').setup({ cmd = { '/path/to/drrc', 'lsp', '-dialect', 'my.dialect' } })
--
-- It makes *.drr files filetype drr, starts one drrc lsp per project root (the folder with .git or go.mod above
-- the file) and attaches it to every .drr buffer of that root, refreshes the code lenses, and provides the two
-- commands the server's code lenses name: drr.applyTo (ask for a program, run the rules on it) and drr.showView
-- (show what the file compiles to), and :DrrApply and :DrrView. Works with Neovim 0.7 and newer.
local M = {}

M.defaults = {
  cmd = { 'drrc', 'lsp' },
  root_markers = { '.git', 'go.mod' },
  -- Buffer-local mappings for the features Neovim has no default mapping for (false: none).
  keymaps = true,
}

local clients = {} -- client id by root folder (Neovim 0.7, which has no vim.lsp.start)
local config

-- root_dir returns the folder of the nearest root marker above the file, or the file's folder.
local function root_dir(fname)
  local dir = vim.fn.fnamemodify(fname, ':p:h')
  for _, marker in ipairs(config.root_markers) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then
      found = vim.fn.findfile(marker, dir .. ';')
    end
    if found ~= '' then
      return vim.fn.fnamemodify(found, ':p:h:h')
    end
  end
  return dir
end

-- server_command runs a command of the server (workspace/executeCommand) and calls done(err, result).
local function server_command(bufnr, command, arg, done)
  vim.lsp.buf_request(bufnr, 'workspace/executeCommand', { command = command, arguments = { arg } },
    function(err, result)
      done(err, result)
    end)
end

-- scratch shows text in a new scratch buffer in a split.
local function scratch(name, text, filetype)
  vim.cmd('vsplit')
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_win_set_buf(0, buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.bo[buf].filetype = filetype or ''
  vim.bo[buf].modifiable = false
  return buf
end

-- apply runs the rules of the buffer's file on program and shows the report; passes (optional) is the pipeline
-- they run in, as drrc apply -passes spells it: 'gpu_inference[before reinplace: rules]'.
function M.apply(bufnr, program, passes)
  local uri = vim.uri_from_bufnr(bufnr)
  local args = { uri = uri, program = program }
  if passes and passes ~= '' and passes ~= 'rules' then
    args.passes = passes
  end
  server_command(bufnr, 'drr.apply', args, function(err, rep)
    if err then
      vim.notify('drr: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    scratch('drr apply ' .. vim.fn.fnamemodify(program, ':t'), rep.summary, 'drrapply')
  end)
end

-- view shows a view of the buffer's file (automaton, automaton-dot, go).
function M.view(bufnr, view)
  local uri = vim.uri_from_bufnr(bufnr)
  server_command(bufnr, 'drr.view', { uri = uri, view = view }, function(err, res)
    if err then
      vim.notify('drr: ' .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    scratch('drr ' .. view .. ' ' .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t'), res.text,
      res.language == 'dot' and 'dot' or '')
  end)
end

-- The client commands of the server's code lenses.
local function register_commands()
  vim.lsp.commands['drr.applyTo'] = function(command, ctx)
    local arg = (command.arguments or {})[1] or {}
    local bufnr = ctx and ctx.bufnr or vim.api.nvim_get_current_buf()
    if arg.program and arg.program ~= '' then
      M.apply(bufnr, arg.program, arg.passes)
      return
    end
    vim.ui.input({ prompt = 'Apply the rules to (a .pir, .json or GraphNet folder): ', completion = 'file' },
      function(path)
        if not path or path == '' then
          return
        end
        vim.ui.input({ prompt = 'Run them in the passes (drrc apply -passes): ', default = M.last_passes or 'rules' },
          function(passes)
            if passes == nil then
              return
            end
            M.last_passes = passes
            M.apply(bufnr, vim.fn.fnamemodify(path, ':p'), passes)
          end)
      end)
  end
  vim.lsp.commands['drr.showView'] = function(command, ctx)
    local arg = (command.arguments or {})[1] or {}
    M.view(ctx and ctx.bufnr or vim.api.nvim_get_current_buf(), arg.view or 'automaton')
  end
end

local function on_attach(client, bufnr)
  vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr }) -- Neovim 0.10 and newer
  end
  if config.keymaps then
    local function map(lhs, rhs)
      vim.api.nvim_buf_set_keymap(bufnr, 'n', lhs, '', { noremap = true, silent = true, callback = rhs })
    end
    map('K', vim.lsp.buf.hover)
    map('gd', vim.lsp.buf.definition)
    map('gr', vim.lsp.buf.references)
    map('<leader>rn', vim.lsp.buf.rename)
    map('<leader>ca', vim.lsp.buf.code_action)
    map('<leader>cl', vim.lsp.codelens.run)
  end
  if client.server_capabilities == nil or client.server_capabilities.codeLensProvider then
    vim.api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'BufWritePost' }, {
      buffer = bufnr,
      callback = function() vim.lsp.codelens.refresh() end,
    })
    vim.lsp.codelens.refresh()
  end
end

-- attach starts (or reuses) the server of the buffer's root and attaches it to the buffer.
function M.attach(bufnr)
  local root = root_dir(vim.api.nvim_buf_get_name(bufnr))
  local cfg = { name = 'drrc', cmd = config.cmd, root_dir = root, on_attach = on_attach }
  if vim.lsp.start then
    vim.lsp.start(cfg, { bufnr = bufnr })
    return
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(cfg)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(opts)
  config = vim.tbl_deep_extend('force', M.defaults, opts or {})
  register_commands()
  local group = vim.api.nvim_create_augroup('drr', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group, pattern = '*.drr', command = 'setfiletype drr',
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'drr',
    callback = function(args)
      vim.bo[args.buf].commentstring = '// %s'
      M.attach(args.buf)
    end,
  })
  vim.api.nvim_create_user_command('DrrApply', function(a) M.apply(0, vim.fn.fnamemodify(a.args, ':p')) end,
    { nargs = 1, complete = 'file', desc = "apply this file's rules to a program" })
  vim.api.nvim_create_user_command('DrrView', function(a) M.view(0, a.args ~= '' and a.args or 'automaton') end,
    { nargs = '?', complete = function() return { 'automaton', 'automaton-dot', 'go' } end,
      desc = 'show what this file compiles to' })
end

return M
