" .drr rule files (pirdrr); require('drr').setup() does the same for Lua configurations.
autocmd BufRead,BufNewFile *.drr setfiletype drr
