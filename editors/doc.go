// Package editors tests the editor integrations in its folders, end to end: vscode/ (the VS Code extension: its
// TextMate grammar on the shipped rules, its unit test, its .vsix package) and nvim/ (headless Neovim with the
// configuration of nvim/ against drrc lsp). It has no code of its own. The tests skip, saying why, when Node.js,
// the extension's node_modules (npm ci in editors/vscode) or Neovim (Debian's neovim) is not installed; .ci/run
// installs them.
package editors
