package drr

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle parsers of the grammar: one for a declaration (what Parse
// uses), one for each kind of statement unit (what recovery re-parses after
// an error) and one for a whole file (for participle's own entry points).
// Each is built on first use (building one costs a few milliseconds, which a
// drrc run that finds no syntax error should not pay for the recovery
// parsers) and is safe for concurrent use.

// grammarOptions are the options every parser of the grammar is built with:
// the .drr lexer, and commitment after a production's first token.
func grammarOptions() []participle.Option {
	return []participle.Option{participle.Lexer(lexerDefinition{}), participle.UseLookahead(0)}
}

// unitParsers are the parsers recovery uses.
type unitParsers struct {
	clause     *participle.Parser[gClauseUnit]
	pattern    *participle.Parser[gPatternUnit]
	constraint *participle.Parser[gConstraintUnit]
	rewrite    *participle.Parser[gRewriteUnit]
}

var (
	chunkParser = sync.OnceValue(func() *participle.Parser[gChunk] {
		return participle.MustBuild[gChunk](grammarOptions()...)
	})
	fileParser = sync.OnceValue(func() *participle.Parser[gFile] {
		return participle.MustBuild[gFile](grammarOptions()...)
	})
	recoveryParsers = sync.OnceValue(func() *unitParsers {
		opts := grammarOptions()
		return &unitParsers{
			clause:     participle.MustBuild[gClauseUnit](opts...),
			pattern:    participle.MustBuild[gPatternUnit](opts...),
			constraint: participle.MustBuild[gConstraintUnit](opts...),
			rewrite:    participle.MustBuild[gRewriteUnit](opts...),
		}
	})
)

// parseTokens runs p over toks (which end with an EOF token).
func parseTokens[G any](p *participle.Parser[G], toks []lexer.Token) (*G, error) {
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		return nil, err
	}
	return p.ParseFromLexer(pl)
}
