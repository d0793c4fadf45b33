package drr

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// grammarParsers are the participle parsers of the grammar: one for a
// declaration (what Parse uses) and one for each kind of statement unit
// (what recovery re-parses after an error). They are built once, on first
// use, and are safe for concurrent use.
type grammarParsers struct {
	chunk      *participle.Parser[gChunk]
	file       *participle.Parser[gFile]
	clause     *participle.Parser[gClauseUnit]
	pattern    *participle.Parser[gPatternUnit]
	constraint *participle.Parser[gConstraintUnit]
	rewrite    *participle.Parser[gRewriteUnit]
}

// parsers returns the grammar's parsers.
var parsers = sync.OnceValue(func() *grammarParsers {
	opts := []participle.Option{participle.Lexer(lexerDefinition{}), participle.UseLookahead(0)}
	return &grammarParsers{
		chunk:      participle.MustBuild[gChunk](opts...),
		file:       participle.MustBuild[gFile](opts...),
		clause:     participle.MustBuild[gClauseUnit](opts...),
		pattern:    participle.MustBuild[gPatternUnit](opts...),
		constraint: participle.MustBuild[gConstraintUnit](opts...),
		rewrite:    participle.MustBuild[gRewriteUnit](opts...),
	}
})

// parseTokens runs p over toks (which end with an EOF token).
func parseTokens[G any](p *participle.Parser[G], toks []lexer.Token) (*G, error) {
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}
