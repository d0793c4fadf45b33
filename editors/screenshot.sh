#!/usr/bin/env bash
# Takes the screenshot of docs/editors.md from a real editor session: Neovim with editors/nvim, in xterm, on a
# virtual X display (Xvfb), editing a rule file with an error: the diagnostic, the code lenses, and the hover of an
# op. Needs Debian's xvfb, xterm, x11-apps (xwd), netpbm and neovim, and Go.
#
#   editors/screenshot.sh [docs/editors-neovim.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/editors-neovim.png}
for tool in Xvfb xterm xwd xwdtopnm pnmtopng nvim go; do
  command -v "$tool" >/dev/null || { echo "screenshot.sh: $tool is not installed" >&2; exit 1; }
done
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/drrc" ./cmd/drrc
cat > "$work/conv_bn.drr" <<'EOF'
/// Convolutions whose filter is OIHW.
family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]

/// conv2d + add(bias) + relu becomes one fused op.
rule conv2d_add_act {
  benefit 3
  match {
    %r = pd_op.rleu(%z)
    %z = pd_op.add(%y, %b)
    %y = pd_op.conv2d(%x, %w) {strides: $st, paddings: $pd, padding_algorithm: $pa, dilations: $dl,
        groups: $g, data_format: $fmt}
  }
  where {
    constant(%b) && numel(%b) == dim(%w, 0) && rank(%b) <= 4
  }
  rewrite {
    %f, _ = pd_op.fused_conv2d_add_act(%x, %w, %b, null) {strides: $st, paddings: $pd, padding_algorithm: $pa,
        dilations: $dl, groups: $g, data_format: $fmt, activation: "relu"}
    replace %r with %f
  }
}
EOF
cat > "$work/init.lua" <<EOF
vim.opt.rtp:prepend('$PWD/editors/nvim')
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.cmd('syntax on')
vim.cmd('highlight NormalFloat guibg=#252526 guifg=#d4d4d4')
vim.cmd('highlight FloatBorder guibg=#252526 guifg=#569cd6')
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'rounded' })
require('drr').setup({ cmd = { '$work/drrc', 'lsp' } })
-- Once the diagnostics are in, hover the conv2d of the pattern.
vim.api.nvim_create_autocmd('DiagnosticChanged', { once = true, callback = function()
  vim.defer_fn(function()
    vim.api.nvim_win_set_cursor(0, { 10, 14 })
    vim.lsp.buf.hover()
  end, 500)
end })
EOF

Xvfb :97 -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
sleep 1
DISPLAY=:97 xterm -geometry 124x34+0+0 -fa 'DejaVu Sans Mono' -fs 11 -bg '#1e1e1e' -fg '#d4d4d4' -b 0 \
  -e sh -c "cd '$work' && nvim -n -i NONE -u init.lua conv_bn.drr" >/dev/null 2>&1 &
pids+=($!)
sleep 6
# The screen is black around the terminal: pnmcrop cuts it away.
xwd -root -display :97 -silent | xwdtopnm 2>/dev/null | pnmcrop -black 2>/dev/null | pnmtopng > "$out"
echo "wrote $out"
