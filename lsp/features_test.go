package lsp

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/lsp/protocol"
)

// foldRule exercises most of the language: a family and its variable, a native, type patterns, where clauses,
// nested rewrite ops.
const foldRule = `/// Convolutions.
family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]

/// The value's last dimension is a multiple of n.
native constraint aligned(%v: value, $n: i64)

/// Folds a scale into the convolution before it.
rule fold {
  benefit 2
  labels fusion
  for C in conv
  match {
    %y = C(%x, %w: tensor<$o x ? x ? x ? x f32>) {strides: $s, groups: $g}
    %z = pd_op.scale(%y, %f) {bias: 0.0}
  }
  where {
    $g >= 1 && dtype(%x) in [float32, float64]
    rank(%f) <= 1
    $o % 8 == 0
    aligned(%x, 8)
  }
  rewrite {
    %w2 = pd_op.multiply(%w, %f)
    replace %z with C(%x, %w2) {strides: $s, groups: $g}
  }
}
`

// openFold opens foldRule and waits until it checks cleanly.
func openFold(t *testing.T) (*client, protocol.DocumentURI) {
	c := startServer(t, Options{})
	uri := c.open("fold.drr", foldRule)
	require.Empty(t, diagStrings(c.diagnostics(uri, 1)))
	return c, uri
}

func TestHover(t *testing.T) {
	c, uri := openFold(t)
	tests := []struct {
		name, marker string
		delta        int
		want         []string
	}{
		{"op", "pd_op.scale", 3, []string{"pd_op.scale(x, scale: Scalar) -> (out)", "| `bias_after_scale` | bool | `true` |", "traits: ReadOnly, ValueSemantics",
			"`scale` is operand 1, not an attribute: a Scalar Paddle's op yaml declares as an attribute and PIR passes as a value"}},
		{"op of the rewrite", "pd_op.multiply", 0, []string{"pd_op.multiply(x, y) -> (out)", "traits: ReadOnly, ValueSemantics, Commutative"}},
		{"attribute of a family variable's op", "{strides", 2, []string{"attribute `strides` of `pd_op.conv2d`: i32[], default `[1, 1]`"}},
		{"builtin", "dtype(", 1, []string{"dtype(value) -> dtype", "element type of a tensor value"}},
		{"program builtin", "aligned(%x, 8)", 0, []string{"native constraint aligned(%v: value, $n: i64)", "multiple of n"}},
		{"input value", "%w:", 1, []string{"value `%w`: operand 1 (`filter`) of `C` (line 13): an input of the pattern", "type: `tensor<$o x ? x ? x ? x f32>`"}},
		{"result value used in where", "rank(%f", 6, []string{"value `%f`: operand 1 (`scale`) of `pd_op.scale`", "- where `rank(%f) <= 1`"}},
		{"matched result", "%z = ", 1, []string{"value `%z`: result 0 (`out`) of `pd_op.scale` (line 14)"}},
		{"rewrite value", "%w2)", 1, []string{"value `%w2`: built by the rewrite (line 23): `pd_op.multiply(%w, %f)`"}},
		{"hole", "$g >=", 1, []string{"hole `$g`, attribute (i32): attribute `groups` of `C` (line 13)", "- where `$g >= 1`"}},
		{"dimension hole", "$o x", 1, []string{"hole `$o`, dimension (int): a dimension of a tensor type (line 13)"}},
		{"family", "in conv", 4, []string{"family `conv` = `[pd_op.conv2d, pd_op.depthwise_conv2d]`", "Convolutions.", "2 ops: `pd_op.conv2d`, `pd_op.depthwise_conv2d`"}},
		{"family variable", "C(%x, %w2)", 0, []string{"family variable `C`: each op of family `conv`", "2 ops"}},
		{"rule", "rule fold", 5, []string{"rule `fold`", "Folds a scale into the convolution before it.", "benefit 2, labels fusion"}},
		{"label", "labels fusion", 8, []string{"label `fusion`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			var h *protocol.Hover
			c.call(protocol.MethodHover, textDoc(t, uri, foldRule, tt.marker, tt.delta), &h)
			require.NotNil(t, h, "no hover")
			for _, w := range tt.want {
				require.Contains(t, h.Contents.Value, w)
			}
		})
	}
	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, foldRule, "match {", 7), &h)
	require.Nil(t, h, "hover on a brace")
}

// complete opens text (with ‸ marking the cursor) as a new version of uri and returns the labels proposed there.
func complete(t *testing.T, c *client, name, text string) []string {
	t.Helper()
	i := strings.Index(text, "‸")
	require.GreaterOrEqual(t, i, 0)
	text = text[:i] + text[i+len("‸"):]
	uri := c.open(name, text)
	var list protocol.CompletionList
	c.call(protocol.MethodCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: newLineIndex(text, protocol.UTF16).position(i)}}, &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
		require.NotNil(t, it.TextEdit)
	}
	return labels
}

func TestCompletion(t *testing.T) {
	c := startServer(t, Options{})
	at := func(old, new string) string {
		require.Contains(t, foldRule, old)
		return strings.Replace(foldRule, old, new, 1)
	}
	tests := []struct {
		name       string
		text       string
		want, not  []string
		exactFirst string // the first item, when it matters
	}{
		{"attribute names of the op being written", at("{bias: 0.0}", "{bias: 0.0, ‸}"), []string{"bias_after_scale"}, []string{"bias", "strides"}, ""},
		{"attribute names, prefix", at("{bias: 0.0}", "{bias: 0.0, bi‸}"), []string{"bias_after_scale"}, []string{"bias"}, "bias_after_scale"},
		{"attribute names of a family variable's op", at("{strides: $s, groups: $g}\n  }", "{strides: $s, groups: $g}\n  }")[:strings.Index(foldRule, "C(%x, %w2)")] +
			"C(%x, %w2) {groups: $g, ‸}\n  }\n}\n", []string{"strides", "paddings", "data_format"}, []string{"groups"}, ""},
		{"op names", at("%w2 = pd_op.multiply", "%w2 = pd_op.mul‸"), []string{"pd_op.multiply", "pd_op.multiply_", "pd_op.multiplex"}, []string{"pd_op.relu"}, ""},
		{"family variables where an op goes", at("%w2 = pd_op.multiply(%w, %f)", "%w2 = ‸"), []string{"C", "pd_op.conv2d"}, nil, ""},
		{"values", at("rank(%f)", "rank(%‸)"), []string{"x", "w", "y", "z", "f"}, []string{"w2", "s"}, ""},
		{"values bound in the rewrite too", at("replace %z with", "replace %‸ with"), []string{"x", "w2"}, nil, ""},
		{"holes", at("$g >= 1", "$‸ >= 1"), []string{"o", "s", "g"}, []string{"x"}, ""},
		{"builtins", at("rank(%f)", "ra‸(%f)"), []string{"rank"}, []string{"dtype"}, "rank"},
		{"natives and builtins", at("aligned(%x, 8)", "al‸"), []string{"aligned"}, nil, ""},
		{"families", at("for C in conv", "for C in ‸"), []string{"conv"}, []string{"pd_op.conv2d"}, ""},
		{"clauses", at("  benefit 2", "  ‸\n  benefit 2"), []string{"benefit", "labels", "for", "match", "where", "rewrite"}, []string{"rule"}, ""},
		{"declarations", "‸\n" + foldRule, []string{"rule", "family", "native", "import"}, []string{"match"}, ""},
		{"traits", at("family conv = [pd_op.conv2d, pd_op.depthwise_conv2d]", "family conv = trait(‸)"), []string{"Inplace", "ViewLike"}, nil, ""},
		{"family members", at("[pd_op.conv2d, ", "[pd_op.conv2d, pd_op.depthw‸, "), []string{"pd_op.depthwise_conv2d"}, nil, ""},
		{"broken statement", at("%z = pd_op.scale(%y, %f) {bias: 0.0}", "%z = pd_op.scale(%y, %f) {bias: 0.0, bias_af‸"), []string{"bias_after_scale"}, nil, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			labels := complete(t, c, "c"+itoa(i)+".drr", tt.text)
			for _, w := range tt.want {
				require.Contains(t, labels, w)
			}
			for _, n := range tt.not {
				require.NotContains(t, labels, n)
			}
			if tt.exactFirst != "" {
				require.Equal(t, tt.exactFirst, labels[0])
			}
		})
	}
}

func TestDefinitionAndReferences(t *testing.T) {
	c, uri := openFold(t)
	type loc struct{ line, col int } // 1-based
	at := func(ls []protocol.Location) []loc {
		var out []loc
		for _, l := range ls {
			require.Equal(t, uri, l.URI)
			out = append(out, loc{int(l.Range.Start.Line) + 1, int(l.Range.Start.Character) + 1})
		}
		return out
	}
	tests := []struct {
		name, marker string
		delta        int
		def          []loc
		refs         []loc
	}{
		{"value", "rank(%f", 6, []loc{{14, 26}}, []loc{{14, 26}, {18, 10}, {23, 30}}},
		{"result", "replace %z", 9, []loc{{14, 5}}, []loc{{14, 5}, {24, 13}}},
		{"rewrite value", "%w2)", 1, []loc{{23, 5}}, []loc{{23, 5}, {24, 27}}},
		{"hole", "groups: $g}\n    %z", 9, []loc{{13, 72}}, []loc{{13, 72}, {17, 5}, {24, 54}}},
		{"family", "in conv", 4, []loc{{2, 8}}, []loc{{2, 8}, {11, 12}}},
		{"family variable", "C(%x, %w2)", 0, []loc{{11, 7}}, []loc{{11, 7}, {13, 10}, {24, 21}}},
		{"native", "aligned(%x, 8)", 2, []loc{{5, 19}}, []loc{{5, 19}, {20, 5}}},
		{"nothing", "match {", 7, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			p := textDoc(t, uri, foldRule, tt.marker, tt.delta)
			var defs []protocol.Location
			c.call(protocol.MethodDefinition, p, &defs)
			require.Equal(t, tt.def, at(defs))
			var refs []protocol.Location
			c.call(protocol.MethodReferences, protocol.ReferenceParams{TextDocumentPositionParams: p,
				Context: struct {
					IncludeDeclaration bool `json:"includeDeclaration"`
				}{true}}, &refs)
			require.Equal(t, tt.refs, at(refs))
			var hl []protocol.DocumentHighlight
			c.call(protocol.MethodDocumentHighlight, p, &hl)
			require.Len(t, hl, len(tt.refs))
		})
	}
}

// TestDefinitionInImport: a family declared in an imported file is found there.
func TestDefinitionInImport(t *testing.T) {
	c := startServer(t, Options{})
	c.write("fams.drr", "// families\nfamily acts = [pd_op.relu, pd_op.sigmoid]\n")
	text := "import \"fams.drr\"\n\nrule r {\n  for A in acts\n  match { %y = A(%x) }\n  rewrite { replace %y with %x }\n}\n"
	uri := c.open("main.drr", text)
	require.Empty(t, c.diagnostics(uri, 1))
	var defs []protocol.Location
	c.call(protocol.MethodDefinition, textDoc(t, uri, text, "acts", 1), &defs)
	require.Equal(t, []protocol.Location{{URI: c.uri("fams.drr"), Range: protocol.Range{
		Start: protocol.Position{Line: 1, Character: 7}, End: protocol.Position{Line: 1, Character: 11}}}}, defs)
	var h *protocol.Hover
	c.call(protocol.MethodHover, textDoc(t, uri, text, "acts", 1), &h)
	require.Contains(t, h.Contents.Value, "2 ops: `pd_op.relu`, `pd_op.sigmoid`")
}

func TestDocumentSymbols(t *testing.T) {
	c, uri := openFold(t)
	var syms []protocol.DocumentSymbol
	c.call(protocol.MethodDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &syms)
	var lines []string
	var walk func(prefix string, ss []protocol.DocumentSymbol)
	walk = func(prefix string, ss []protocol.DocumentSymbol) {
		for _, s := range ss {
			lines = append(lines, prefix+s.Name+" ("+s.Detail+")")
			walk(prefix+"  ", s.Children)
		}
	}
	walk("", syms)
	require.Equal(t, []string{
		"conv (2 ops)",
		"aligned (native constraint)",
		"fold (benefit 2; labels fusion; for C in conv)",
		"  match (2 ops)",
		"    C (%y)",
		"    pd_op.scale (%z)",
		"  where (4 constraints)",
		"  rewrite (2 statements)",
		"    %w2 = … ()",
		"    replace %z with C(%x, %w2) {strides: $s, groups: $g} ()",
	}, lines)
	require.Equal(t, protocol.SymbolFunction, syms[2].Kind)
	require.Equal(t, protocol.Position{Line: 7, Character: 5}, syms[2].SelectionRange.Start)
}

func TestSignatureHelp(t *testing.T) {
	c := startServer(t, Options{})
	tests := []struct {
		name, text string
		label      string
		active     uint32
	}{
		{"op operands", strings.Replace(foldRule, "pd_op.scale(%y, %f)", "pd_op.scale(%y, ‸", 1), "pd_op.scale(x, scale: Scalar) {bias: f32, bias_after_scale: bool} -> (out)", 1},
		{"family variable", strings.Replace(foldRule, "C(%x, %w2)", "C(‸", 1), "pd_op.conv2d(input, filter) {strides: i32[], paddings: i32[], padding_algorithm: str, dilations: i32[], groups: i32, data_format: str} -> (out)", 0},
		{"builtin", strings.Replace(foldRule, "rank(%f)", "dim(%f, ‸", 1), "dim(value, int) -> int", 1},
		{"variadic builtin", strings.Replace(foldRule, "rank(%f)", "immutable(%f, %x, %w, ‸", 1), "immutable(value, value...) -> bool", 1},
		{"native", strings.Replace(foldRule, "aligned(%x, 8)", "aligned(‸", 1), "aligned(%v: value, $n: i64)", 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			k := strings.Index(tt.text, "‸")
			text := tt.text[:k] + tt.text[k+len("‸"):]
			uri := c.open("s"+itoa(i)+".drr", text)
			var h *protocol.SignatureHelp
			c.call(protocol.MethodSignatureHelp, protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
				Position: newLineIndex(text, protocol.UTF16).position(k)}, &h)
			require.NotNil(t, h)
			require.Equal(t, tt.label, h.Signatures[0].Label)
			require.Equal(t, tt.active, h.ActiveParameter)
			p := h.Signatures[0].Parameters[h.ActiveParameter].Label
			require.NotEmpty(t, tt.label[p[0]:p[1]])
		})
	}
}

func TestInlayHints(t *testing.T) {
	c, uri := openFold(t)
	var hints []protocol.InlayHint
	c.call(protocol.MethodInlayHint, protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range: protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
	var got []string
	for _, h := range hints {
		got = append(got, itoa(h.Position.Line+1)+":"+itoa(h.Position.Character+1)+" "+h.Label)
	}
	sort.Strings(got)
	require.Equal(t, []string{
		"13:12 input:",            // C(%x, …): operand names of the family's first member
		"13:14 : float32|float64", // what the where clause says of %x's dtype
		"13:16 filter:",           // %w (its type is written: no type hint)
		"14:22 x:",
		"14:26 scale:",
		"14:28 : rank<=1", // %f
		"20:13 v:",        // aligned(%x, …): the native's parameter names
		"20:17 n:",
		"23:26 x:",
		"23:30 y:",
		"24:23 input:",
		"24:27 filter:",
	}, got)
}

func TestFormatting(t *testing.T) {
	c := startServer(t, Options{})
	messy := "rule   drop_relu {\nmatch {\n%y=pd_op.relu( %x )\n}\n   rewrite { replace %y with %x }\n}\n"
	uri := c.open("f.drr", messy)
	var edits []protocol.TextEdit
	c.call(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	require.Len(t, edits, 1)
	got := applyEdits(t, messy, edits)
	require.Equal(t, reluRule, got)

	// Formatted text needs no edit; a file with syntax errors is not formatted.
	c.replace(uri, 2, reluRule)
	c.call(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	require.Empty(t, edits)
	c.replace(uri, 3, "rule r {\n  match { %y = pd_op.relu(%x }\n}\n")
	err := c.callErr(protocol.MethodFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	require.ErrorContains(t, err, "has syntax errors")
}

// applyEdits applies non-overlapping edits to text.
func applyEdits(t testing.TB, text string, edits []protocol.TextEdit) string {
	li := newLineIndex(text, protocol.UTF16)
	sort.Slice(edits, func(i, j int) bool { return li.offset(edits[i].Range.Start) > li.offset(edits[j].Range.Start) })
	for _, e := range edits {
		text = text[:li.offset(e.Range.Start)] + e.NewText + text[li.offset(e.Range.End):]
	}
	return text
}

func TestRename(t *testing.T) {
	c, uri := openFold(t)
	rename := func(marker string, delta int, name string) (string, error) {
		var we protocol.WorkspaceEdit
		err := c.callErr(protocol.MethodRename, protocol.RenameParams{TextDocumentPositionParams: textDoc(t, uri, foldRule, marker, delta), NewName: name}, &we)
		if err != nil {
			return "", err
		}
		return applyEdits(t, foldRule, we.Changes[uri]), nil
	}
	got, err := rename("rank(%f", 6, "factor")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(foldRule, "%f)", "%factor)"), got)
	got, err = rename("$g >=", 1, "$groups")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(foldRule, "$g", "$groups"), got)
	got, err = rename("in conv", 4, "convs")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(strings.ReplaceAll(foldRule, "family conv", "family convs"), "in conv", "in convs"), got)
	got, err = rename("C(%x, %w2)", 0, "Conv")
	require.NoError(t, err)
	require.Equal(t, strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(foldRule, "for C", "for Conv"), "= C(", "= Conv("), "with C(", "with Conv("), got)

	var pr protocol.PrepareRenameResult
	c.call(protocol.MethodPrepareRename, textDoc(t, uri, foldRule, "%w2)", 2), &pr)
	require.Equal(t, "w2", pr.Placeholder)
	require.Equal(t, protocol.Position{Line: 23, Character: 27}, pr.Range.Start)

	for _, bad := range []struct{ marker, name, err string }{
		{"rank(%f", "x", "%x is already used in rule fold"},
		{"rank(%f", "a b", `"a b" is not a valid value name`},
		{"C(%x, %w2)", "match", `"match" is a keyword`},
		{"aligned(%x, 8)", "ok", "native aligned is named by the plugin that registers it"},
		{"match {", "x", "there is no value, hole, label, family or rule here to rename"},
	} {
		delta := map[string]int{"rank(%f": 6}[bad.marker]
		_, err := rename(bad.marker, delta, bad.name)
		require.ErrorContains(t, err, bad.err)
	}
}

func TestCodeActions(t *testing.T) {
	c := startServer(t, Options{})
	bad := "rule r1 {\n  match { %y = pd_op.rleu(%x) }\n  rewrite { replace %y with %x }\n}\n" +
		"rule r2 {\n  match { %y = pd_op.conv2d(%x, %w) {grops: $g} }\n  where { $g == 1 }\n  rewrite { replace %y with %x }\n}\n" +
		"rule r3 {\n  match { %y = pd_op.sigmoid(%x) }\n  rewrite { replace %y with relu(%x) }\n}\n"
	uri := c.open("q.drr", bad)
	diags := c.diagnostics(uri, 1)
	require.Equal(t, []string{
		"2:16-2:26 error: unknown op pd_op.rleu (did you mean pd_op.relu?)",
		"6:38-6:43 error: pd_op.conv2d has no attribute grops (did you mean groups?)",
		"12:29-12:33 error: relu is not a family variable of this rule (ops are written with their dialect: pd_op.relu)",
	}, diagStrings(diags))
	fix := func(d *protocol.Diagnostic, r protocol.Range) []protocol.CodeAction {
		var actions []protocol.CodeAction
		p := protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r}
		if d != nil {
			p.Context.Diagnostics = []protocol.Diagnostic{*d}
		}
		c.call(protocol.MethodCodeAction, p, &actions)
		return actions
	}
	// With the client's diagnostic (and its data).
	actions := fix(&diags[0], diags[0].Range)
	require.Len(t, actions, 1)
	require.Equal(t, "Change to pd_op.relu", actions[0].Title)
	require.Contains(t, applyEdits(t, bad, actions[0].Edit.Changes[uri]), "%y = pd_op.relu(%x)")
	// With only the message (a client that drops data).
	d := diags[1]
	d.Data = nil
	actions = fix(&d, d.Range)
	require.Len(t, actions, 1)
	require.Contains(t, applyEdits(t, bad, actions[0].Edit.Changes[uri]), "{groups: $g}")
	// Without diagnostics from the client: the server's own at the range.
	actions = fix(nil, protocol.Range{Start: diags[2].Range.Start, End: diags[2].Range.Start})
	require.Len(t, actions, 1)
	require.Contains(t, applyEdits(t, bad, actions[0].Edit.Changes[uri]), "replace %y with pd_op.relu(%x)")
	// No fix where nothing is suggested.
	require.Empty(t, fix(nil, protocol.Range{}))
}

func TestSemanticTokens(t *testing.T) {
	c, uri := openFold(t)
	var st protocol.SemanticTokens
	c.call(protocol.MethodSemanticTokensFull, protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &st)
	require.Zero(t, len(st.Data)%5)
	li := newLineIndex(foldRule, protocol.UTF16)
	got := map[string]string{} // text → type (+ modifiers), first occurrence
	var line, char uint32
	for i := 0; i < len(st.Data); i += 5 {
		if st.Data[i] > 0 {
			char = 0
		}
		line += st.Data[i]
		char += st.Data[i+1]
		start := li.offset(protocol.Position{Line: line, Character: char})
		text := foldRule[start : start+int(st.Data[i+2])]
		typ := tokenTypes[st.Data[i+3]]
		for b, m := range tokenModifiers {
			if st.Data[i+4]&(1<<b) != 0 {
				typ += "+" + m
			}
		}
		if _, ok := got[text]; !ok {
			got[text] = typ
		}
	}
	for text, want := range map[string]string{
		"/// Convolutions.": "comment+documentation",
		"family":            "keyword",
		"conv":              "enum+declaration",
		"pd_op.conv2d":      "function",
		"aligned":           "method+declaration",
		"rule":              "keyword",
		"fold":              "class+declaration",
		"2":                 "number",
		"C":                 "typeParameter+declaration",
		"%y":                "variable+declaration",
		"%x":                "variable+declaration",
		"$o":                "parameter+declaration",
		"f32":               "type",
		"strides":           "property",
		"0.0":               "number",
		">=":                "operator",
		"dtype":             "function+defaultLibrary",
		"float32":           "enumMember",
		"replace":           "keyword",
		"fusion":            "namespace",
	} {
		require.Equal(t, want, got[text], "token %q", text)
	}
}

// TestHoverMeanAxis: the hover of pd_op.mean says once that axis is an operand (its catalog doc said it was an
// attribute, then an operand), and lists keepdim alone as an attribute.
func TestHoverMeanAxis(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	md := opMarkdown(ctx.Schema("pd_op.mean"))
	assert.Contains(t, md, "`axis` is operand 1, not an attribute")
	assert.NotContains(t, strings.ToLower(md), "as an intarray attribute")
	assert.Contains(t, md, "| `keepdim` | bool | `false` |")
	assert.NotContains(t, md, "| `axis`")
}
