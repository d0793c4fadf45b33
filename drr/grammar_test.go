package drr

// This file holds the token-level grammar of .drr written for participle:
// an executable form of the EBNF in doc.go, used as an oracle. Parse itself
// is a hand-written recursive-descent parser (participle was too slow: see
// BenchmarkParticipleReference), but every file Parse accepts must also be
// accepted by this grammar, and the grammar errors of the error goldens must
// be rejected by it. The grammar sees the same tokens as Parse (tensor type
// bodies are single tokens; newlines are Sep/TopSep tokens only where they
// separate statements).

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"
)

type refFile struct {
	Decls []*refDecl `parser:"( @@ ( TopSep @@ )* TopSep? )?"`
}

type refDecl struct {
	Import *refImport `parser:"  @@"`
	Family *refFamily `parser:"| @@"`
	Native *refNative `parser:"| @@"`
	Rule   *refRule   `parser:"| @@"`
}

type refImport struct {
	Path string `parser:"'import' @String"`
}

type refFamily struct {
	Name  string        `parser:"'family' @Ident '='"`
	Terms []*refFamTerm `parser:"@@ ( '-' @@ )*"`
}

type refFamTerm struct {
	List  *refOpNames `parser:"  '[' @@ ']'"`
	Trait string      `parser:"| 'trait' '(' @Ident ')'"`
	Ref   string      `parser:"| @Ident"`
}

type refOpNames struct {
	Names []string `parser:"( @( Ident | String ) ( ',' @( Ident | String ) )* )?"`
	Open  bool     `parser:"@','?"`
}

type refNative struct {
	Kind   string      `parser:"'native' @( 'constraint' | 'rewrite' )"`
	Name   string      `parser:"@Ident '('"`
	Params []*refParam `parser:"( @@ ( ',' @@ )* ','? )? ')'"`
	Result string      `parser:"( '->' @Ident )?"`
}

type refParam struct {
	Name string `parser:"@( Value | Hole ) ':'"`
	Type string `parser:"@Ident"`
}

type refRule struct {
	Name    string       `parser:"'rule' @Ident '{'"`
	Clauses []*refClause `parser:"( @@ ( Sep? @@ )* )? '}'"`
}

type refClause struct {
	Benefit string        `parser:"  'benefit' @Int"`
	Labels  []string      `parser:"| 'labels' @Ident ( ',' @Ident )*"`
	For     *refFor       `parser:"| @@"`
	Match   *refMatch     `parser:"| @@"`
	Where   *refWhere     `parser:"| @@"`
	Rewrite *refRewriteBl `parser:"| @@"`
}

type refFor struct {
	Names  []string `parser:"'for' @Ident ( ',' @Ident )?"`
	Family string   `parser:"'in' @Ident"`
}

type refMatch struct {
	Kw    string        `parser:"@'match' '{'"`
	Stmts []*refPattern `parser:"( @@ ( Sep @@ )* )? '}'"`
}

type refWhere struct {
	Kw    string     `parser:"@'where' '{'"`
	Exprs []*refExpr `parser:"( @@ ( Sep @@ )* )? '}'"`
}

type refRewriteBl struct {
	Kw    string        `parser:"@'rewrite' '{'"`
	Stmts []*refRewrite `parser:"( @@ ( Sep @@ )* )? '}'"`
}

type refPattern struct {
	Label   string      `parser:"( @Label '=' )?"`
	Results *refResults `parser:"( @@ '=' )?"`
	Op      *refOpPat   `parser:"@@"`
}

type refResults struct {
	Paren *refParenResults `parser:"  @@"`
	Items []string         `parser:"| @( Value | '_' | '...' ) ( ',' @( Value | '_' | '...' ) )*"`
}

type refParenResults struct {
	Open  string   `parser:"@'('"`
	Items []string `parser:"( @( Value | '_' | '...' ) ( ',' @( Value | '_' | '...' ) )* )? ')'"`
}

type refOpPat struct {
	Name     string        `parser:"@( Ident | String )"`
	ID       string        `parser:"( '[' 'id' ':' @Int ']' )?"`
	Open     string        `parser:"@'('"`
	Operands []*refOperand `parser:"( @@ ( ',' @@ )* ','? )? ')'"`
	Attrs    *refAttrMap   `parser:"@@?"`
	Sig      *refSig       `parser:"@@?"`
}

type refOperand struct {
	Either  *refEither   `parser:"  @@"`
	Value   *refValueOpd `parser:"| @@"`
	Wild    string       `parser:"| @'_'"`
	Null    string       `parser:"| @( 'null' | Null )"`
	Combine *refCombine  `parser:"| @@"`
	Op      *refOpPat    `parser:"| @@"`
}

type refEither struct {
	Open     string        `parser:"'either' @'('"`
	Operands []*refOperand `parser:"( @@ ( ',' @@ )* ','? )? ')'"`
}

type refValueOpd struct {
	Name   string   `parser:"@Value"`
	Spread string   `parser:"( @'...'"`
	Type   *refType `parser:"| ':' @@ )?"`
}

type refCombine struct {
	Open  string        `parser:"@'['"`
	Elems []*refOperand `parser:"( @@ ( ',' @@ )* ','? )? ']'"`
}

type refAttrMap struct {
	Open    string          `parser:"@'{'"`
	Entries []*refAttrEntry `parser:"( @@ ( ',' @@ )* ','? )? '}'"`
}

type refAttrEntry struct {
	Rest  string   `parser:"  @Hole '...'"`
	Key   string   `parser:"| @Ident ':'"`
	Value *refExpr `parser:"  @@"`
}

type refSig struct {
	Inputs  *refTypeList `parser:"( ':' '(' @@ ')' )?"`
	Arrow   string       `parser:"@'->'"`
	Outputs []*refType   `parser:"( @@ ( ',' @@ )* )?"`
}

type refTypeList struct {
	Types []*refType `parser:"( @@ ( ',' @@ )*"`
	Comma bool       `parser:"  @','? )?"`
}

type refType struct {
	Tensor string      `parser:"  @Tensor"`
	Vec    *refVecType `parser:"| @@"`
	TypeOf string      `parser:"| 'type' '(' @Value ')'"`
	Other  string      `parser:"| @( Hole | NullType | '?' | '...' | Ident )"`
}

type refVecType struct {
	Open  string     `parser:"'vec' @'['"`
	Elems []*refType `parser:"( @@ ( ',' @@ )* ','? )? ']'"`
}

type refRewrite struct {
	Replace *refReplace `parser:"  @@"`
	Erase   string      `parser:"| 'erase' @( Label | Value )"`
	Assign  *refAssign  `parser:"| @@"`
	Expr    *refExpr    `parser:"| @@"`
}

type refReplace struct {
	Later bool     `parser:"'replace' @( 'later' 'uses' 'of' )?"`
	Old   string   `parser:"@Value 'with'"`
	New   *refExpr `parser:"@@"`
}

type refAssign struct {
	Results *refResults `parser:"@@ '='"`
	Value   *refExpr    `parser:"@@"`
	Types   []*refType  `parser:"( '->' @@ ( ',' @@ )* )?"`
}

type refExpr struct {
	Cond *refBinary `parser:"@@"`
	Then *refExpr   `parser:"( '?' @@"`
	Else *refExpr   `parser:"  ':' @@ )?"`
}

type refBinary struct {
	X    *refUnary    `parser:"@@"`
	Rest []*refBinOps `parser:"@@*"`
}

type refBinOps struct {
	Op string    `parser:"@( '||' | '&&' | '==' | '!=' | '<=' | '>=' | '<' | '>' | 'in' | '+' | '-' | '*' | '/' | '%' )"`
	Y  *refUnary `parser:"@@"`
}

type refUnary struct {
	Op      string      `parser:"  @( '!' | '-' )"`
	X       *refUnary   `parser:"  @@"`
	Postfix *refPostfix `parser:"| @@"`
}

type refPostfix struct {
	X      *refPrimary `parser:"@@"`
	Index  []*refExpr  `parser:"( '[' @@ ']' )*"`
	Spread bool        `parser:"@'...'?"`
}

type refPrimary struct {
	Tagged *refTagged `parser:"  @@"`
	Call   *refCall   `parser:"| @@"`
	Paren  *refExpr   `parser:"| '(' @@ ')'"`
	List   *refList   `parser:"| @@"`
	Tok    string     `parser:"| @( Tensor | NullType | Int | Float | String | Value | Hole | Label | Sym | Null | Ident )"`
}

type refTagged struct {
	Tag   string   `parser:"@Tag"`
	List  *refList `parser:"( @@"`
	Value string   `parser:"| @( Int | Float | String | Sym | Tensor | Ident ) )"`
}

type refCall struct {
	Name  string      `parser:"@( Ident | String ) '('"`
	Args  []*refExpr  `parser:"( @@ ( ',' @@ )* ','? )? ')'"`
	Attrs *refAttrMap `parser:"@@?"`
}

type refList struct {
	Open  string     `parser:"@'['"`
	Elems []*refExpr `parser:"( @@ ( ',' @@ )* ','? )? ']'"`
}

// refLexerDef declares the scanner's token types to participle; the tokens
// themselves are fed by refParse.
type refLexerDef struct{}

func refTokenType(k tokKind) lexer.TokenType {
	if k == tEOF {
		return lexer.EOF
	}
	return lexer.TokenType(-(int(k) + 2))
}

func (refLexerDef) Symbols() map[string]lexer.TokenType {
	m := map[string]lexer.TokenType{}
	for k, name := range tokKindNames {
		m[name] = refTokenType(tokKind(k))
	}
	return m
}

func (refLexerDef) Lex(string, io.Reader) (lexer.Lexer, error) { panic("unused") }

type refTokens struct {
	toks []lexer.Token
	i    int
}

func (l *refTokens) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}

var refParser = participle.MustBuild[refFile](
	participle.Lexer(refLexerDef{}),
	participle.UseLookahead(4),
)

// refParse parses src with the reference grammar. It reports lexical
// errors too, since the grammar only sees tokens.
func refParse(filename string, src []byte) error {
	toks, _, diags := scan(filename, string(src))
	if len(diags) > 0 {
		return diags
	}
	lt := make([]lexer.Token, len(toks))
	for i, t := range toks {
		lt[i] = lexer.Token{Type: refTokenType(t.kind), Value: t.text,
			Pos: lexer.Position{Filename: filename, Offset: int(t.off), Line: int(t.line), Column: int(t.col)}}
	}
	pl, err := lexer.Upgrade(&refTokens{toks: lt})
	if err != nil {
		return err
	}
	_, err = refParser.ParseFromLexer(pl)
	return err
}

// acceptedInputs returns every input of the tests that Parse accepts.
func acceptedInputs(t *testing.T) map[string][]byte {
	inputs := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join("testdata", "format", "*.txtar"))
	for _, path := range files {
		ar, err := txtar.ParseFile(path)
		require.NoError(t, err)
		for _, f := range ar.Files {
			inputs[filepath.Base(path)+"/"+f.Name] = f.Data
		}
	}
	for _, l := range corpusLines(t, 200) {
		inputs[l.file+":"+l.text] = []byte(wrapMatch(l.text))
	}
	inputs["generated"] = generateRules(3)
	return inputs
}

// TestReferenceGrammarAccepts: whatever Parse accepts, the reference
// grammar accepts.
func TestReferenceGrammarAccepts(t *testing.T) {
	for name, src := range acceptedInputs(t) {
		_, err := Parse(name, src)
		require.NoError(t, err, name)
		assert.NoError(t, refParse(name, src), name)
	}
}

// TestReferenceGrammarRejects: the grammar errors of the error goldens are
// rejected by the reference grammar too. (Errors that are not about the
// grammar — duplicate clauses, tensor type bodies, a missing match block —
// are only reported by Parse.)
func TestReferenceGrammarRejects(t *testing.T) {
	grammarOnly := map[string]bool{
		"declarations": true, "lexical": true, "missing_brace": true, "patterns": true,
		"unclosed_paren": true, "unclosed_rule": true, "where_rewrite": true, "tabs_unicode": true,
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "errors", "*.txtar"))
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		if !grammarOnly[name] {
			continue
		}
		ar, err := txtar.ParseFile(path)
		require.NoError(t, err)
		src, _ := section(ar, "input.drr")
		assert.Error(t, refParse(name, src), name)
	}
}

// TestReferenceGrammarEBNF prints the reference grammar in participle's EBNF
// notation when REF_EBNF is set (the EBNF of doc.go was derived from it).
func TestReferenceGrammarEBNF(t *testing.T) {
	ebnf := refParser.String()
	require.Contains(t, ebnf, "RefFile")
	if os.Getenv("REF_EBNF") != "" {
		t.Log("\n" + ebnf)
	}
}

// BenchmarkParticipleReference parses the 2,000-rule benchmark file with the
// participle reference grammar, for comparison with BenchmarkParse2000.
func BenchmarkParticipleReference(b *testing.B) {
	src := generateRules(2000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if err := refParse("bench.drr", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/2000rules")
}
