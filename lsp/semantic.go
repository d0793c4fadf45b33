package lsp

import (
	"context"
	"slices"
	"sort"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/lsp/protocol"
)

func init() {
	methods[protocol.MethodSemanticTokensFull] = on(semanticTokens)
}

// The semantic token types and modifiers the server uses (the legend of its capabilities), standard names of the
// protocol, so that every theme colours them.
var (
	tokenTypes = []string{"keyword", "comment", "string", "number", "operator", "variable", "parameter",
		"function", "type", "property", "enum", "enumMember", "typeParameter", "namespace", "decorator", "class",
		"method"}
	tokenModifiers = []string{"declaration", "documentation", "defaultLibrary", "readonly"}
)

// semType is the index of a token type in tokenTypes; semMod a bit set of tokenModifiers.
type (
	semType int
	semMod  uint32
)

func semTypeOf(name string) semType { return semType(slices.Index(tokenTypes, name)) }

var (
	semKeyword       = semTypeOf("keyword")
	semComment       = semTypeOf("comment")
	semString        = semTypeOf("string")
	semNumber        = semTypeOf("number")
	semOperator      = semTypeOf("operator")
	semVariable      = semTypeOf("variable")
	semParameter     = semTypeOf("parameter")
	semFunction      = semTypeOf("function")
	semTypeName      = semTypeOf("type")
	semProperty      = semTypeOf("property")
	semEnum          = semTypeOf("enum")
	semEnumMember    = semTypeOf("enumMember")
	semTypeParameter = semTypeOf("typeParameter")
	semNamespace     = semTypeOf("namespace")
	semDecorator     = semTypeOf("decorator")
	semClass         = semTypeOf("class")
	semMethod        = semTypeOf("method")
)

const (
	modDeclaration semMod = 1 << iota
	modDocumentation
	modDefaultLibrary
	modReadonly
)

// semToken is a classified token.
type semToken struct {
	start, end int
	typ        semType
	mod        semMod
}

// semanticTokens classifies the tokens of the document: the lexer says what is a number, a string, a %value, a
// $hole, a comment or an operator; the syntax tree says which identifiers are ops, builtins, attribute names,
// families, family variables, rules, natives and types, and which are keywords.
func semanticTokens(s *Server, ctx context.Context, p *protocol.SemanticTokensParams) (any, error) {
	snap, err := s.snapshot(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return &protocol.SemanticTokens{Data: snap.encodeTokens(snap.classify())}, nil
}

// classify returns the classified tokens in order.
func (s *snapshot) classify() []semToken {
	byOff := map[int]semToken{} // identifiers the tree classifies, by offset
	set := func(n drr.Node, t semType, m semMod) {
		byOff[n.Pos().Offset] = semToken{start: n.Pos().Offset, end: n.End().Offset, typ: t, mod: m}
	}
	f, _ := s.parsed()
	for _, o := range s.index().occs {
		var m semMod
		if o.role == roleDecl || o.role == roleResult || o.role == roleAssign || o == s.index().def(o) {
			m = modDeclaration
		}
		t := map[symKind]semType{symValue: semVariable, symHole: semParameter, symLabel: semDecorator,
			symFamilyVar: semTypeParameter, symFamily: semEnum, symNative: semMethod, symRule: semClass,
			symParam: semVariable}[o.kind]
		if o.kind == symParam {
			m |= modReadonly // a parameter of the rule set: a constant of the run
		}
		byOff[o.start] = semToken{start: o.start, end: o.end, typ: t, mod: m}
	}
	drr.Inspect(f, func(n drr.Node) bool {
		switch n := n.(type) {
		case *drr.OpName:
			if _, done := byOff[n.Pos().Offset]; done {
				break // a family variable or native
			}
			if n.IsBare() {
				if _, ok := lookupBuiltin(n.Name); ok {
					set(n, semFunction, modDefaultLibrary)
				}
			} else {
				set(n, semFunction, 0)
			}
		case *drr.AttrEntry:
			if n.Key != nil {
				set(n.Key, semProperty, 0)
			}
		case *drr.NamedType:
			set(n, semTypeName, 0)
		case *drr.Dtype:
			if n.Kind == drr.DtypeScalar {
				set(n, semTypeName, 0)
			}
		case *drr.NameExpr:
			if _, done := byOff[n.Pos().Offset]; !done {
				set(n, semEnumMember, 0)
			}
		case *drr.FamilyTrait:
			if n.Trait != nil {
				set(n.Trait, semEnumMember, 0)
			}
		case *drr.Labels:
			for _, l := range n.Names {
				set(l, semNamespace, 0)
			}
		case *drr.Param:
			if n.Type != nil {
				set(n.Type, semTypeName, 0)
			}
		case *drr.Native:
			if n.Result != nil {
				set(n.Result, semTypeName, 0)
			}
		case *drr.ParamDecl:
			if n.Type != nil {
				set(n.Type, semTypeName, 0)
			}
		}
		return true
	})
	var out []semToken
	for _, tk := range s.tokens() {
		start, end := tk.Pos.Offset, tk.End().Offset
		if st, ok := byOff[start]; ok {
			if st.end > end {
				st.end = end // a name the tree spans wider (a value operand with its type) is coloured by its token
			}
			out = append(out, st)
			continue
		}
		t := semType(-1)
		var m semMod
		switch tk.Kind {
		case drr.TokenIdent:
			if slices.Contains(drr.Keywords, tk.Text) {
				t = semKeyword
			}
		case drr.TokenInt, drr.TokenFloat:
			t = semNumber
		case drr.TokenString:
			t = semString
		case drr.TokenValue:
			t = semVariable
		case drr.TokenHole:
			t = semParameter
		case drr.TokenLabel:
			t = semDecorator
		case drr.TokenTag, drr.TokenTypeName:
			t = semTypeName
		case drr.TokenSymbol:
			t = semEnumMember
		case drr.TokenNull, drr.TokenWildcard:
			t = semKeyword
		case drr.TokenComment:
			t = semComment
		case drr.TokenDocComment:
			t, m = semComment, modDocumentation
		case drr.TokenPunct:
			if isOperator(tk.Text) {
				t = semOperator
			}
		}
		if t >= 0 {
			out = append(out, semToken{start: start, end: end, typ: t, mod: m})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// isOperator reports whether punctuation is an operator of expressions or of patterns (`a | b`, `op(…)?`;
// brackets and separators are not).
func isOperator(p string) bool {
	switch p {
	case "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", "+", "-", "*", "/", "%", "?", "->", "...", "|":
		return true
	}
	return false
}

// encodeTokens encodes tokens as the protocol wants them: five numbers each, relative to the token before.
func (s *snapshot) encodeTokens(toks []semToken) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var line, char uint32
	for _, t := range toks {
		p := s.lines.position(t.start)
		length := uint32(s.lines.width(s.text[t.start:t.end]))
		if length == 0 {
			continue
		}
		dl, dc := p.Line-line, p.Character
		if dl == 0 {
			dc = p.Character - char
		}
		data = append(data, dl, dc, length, uint32(t.typ), uint32(t.mod))
		line, char = p.Line, p.Character
	}
	return data
}
