" Vim syntax for .drr rule files (pirdrr): the same classes as the VS Code grammar
" (editors/vscode/syntaxes/drr.tmLanguage.json). With a Neovim that has semantic tokens (0.9+), drrc lsp refines
" them: family variables, natives, rule names.
if exists('b:current_syntax')
  finish
endif

syn keyword drrDecl rule family native param import
syn keyword drrClause benefit labels for in
syn keyword drrBlock match where rewrite
syn keyword drrStatement replace with erase later uses of either trait constraint
syn keyword drrConstant true false null
syn match drrNull '<<NULL \(VALUE\|TYPE\)>>'
syn match drrValue '%[A-Za-z0-9_]\+\(\.\.\.\)\='
syn match drrHole '\$[A-Za-z0-9_]\+\(\.\.\.\)\='
syn match drrLabel '@[A-Za-z0-9_]\+'
syn match drrOp '\<[A-Za-z_][A-Za-z0-9_]*\(\.[A-Za-z_][A-Za-z0-9_]*\)\+'
syn match drrAttr '\<[A-Za-z_][A-Za-z0-9_]*\ze\s*:[^:]'
syn match drrNumber '\<-\=\(0x\x\+\|\d\+\(\.\d\+\)\=\([eE][-+]\=\d\+\)\=\)'
syn match drrTag '([A-Za-z_][A-Za-z0-9_.]*)\ze[-A-Za-z0-9_"\[<(.]'
syn region drrString start='"' skip='\\.' end='"\|$'
syn match drrComment '//.*$' contains=@Spell
syn match drrDoc '///[^/].*$\|///$' contains=@Spell

hi def link drrDecl Keyword
hi def link drrClause Keyword
hi def link drrBlock Keyword
hi def link drrStatement Statement
hi def link drrConstant Constant
hi def link drrNull Constant
hi def link drrValue Identifier
hi def link drrHole Special
hi def link drrLabel Label
hi def link drrOp Function
hi def link drrAttr Type
hi def link drrNumber Number
hi def link drrTag Type
hi def link drrString String
hi def link drrComment Comment
hi def link drrDoc SpecialComment

let b:current_syntax = 'drr'
