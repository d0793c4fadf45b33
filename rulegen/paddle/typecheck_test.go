package paddle

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// The generator checks each attribute access against the table as it prints it; this test checks the printed C++
// again, from the text alone: in every class of every shipped rule file, each match_ctx.Attr<T>("a") reads the
// attribute a source op binds to "a" as the table's T, each result attribute copied with pat.Attr has the type of
// the attribute it copies, each builder is the table's and each ComputeAttr returns the table's type.

var (
	classRE   = regexp.MustCompile(`(?m)^class (\w+) : public paddle::drr::DrrPatternBase`)
	opDeclRE  = regexp.MustCompile(`(?s)= (pat|res)\.Op\("([^"]+)"(.*?)\);\n`)
	bindRE    = regexp.MustCompile(`\{"(\w+)", pat\.Attr\("(\w+)"\)\}`)
	readRE    = regexp.MustCompile(`match_ctx\.Attr<(std::vector<\w+>|[\w:]+)>\("(\w+)"\)`)
	builderRE = regexp.MustCompile(`^res\.(\w+)\(`)
	computeRE = regexp.MustCompile(`^res\.ComputeAttr\(\s*\[\w*\]\([^)]*\) -> (std::vector<\w+>|[\w:]+) \{`)
)

// attrEntries splits the attribute list of an op declaration ({{"a", v}, {"b", w}}) into name → value.
func attrEntries(list string) [][2]string {
	list = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(list), ","))
	if !strings.HasPrefix(list, "{") {
		return nil
	}
	list = list[1 : len(list)-1] // the outer braces
	var out [][2]string
	depth, start := 0, -1
	for i, c := range list {
		switch c {
		case '{', '(', '[':
			if depth == 0 && c == '{' {
				start = i
			}
			depth++
		case '}', ')', ']':
			depth--
			if depth == 0 && c == '}' && start >= 0 {
				entry := list[start+1 : i]
				comma := strings.Index(entry, ",")
				out = append(out, [2]string{strings.Trim(entry[:comma], `" `), strings.TrimSpace(entry[comma+1:])})
				start = -1
			}
		}
	}
	return out
}

// catalogType is the type of attribute name of op, or of its operand name when PIR made a mutable attribute an
// operand (a reshape's shape given as an attribute).
func catalogType(t *testing.T, ctx *ir.Context, op, name string) ir.AttrType {
	s := ctx.Schema(op)
	require.NotNil(t, s, op)
	if a := s.Attr(name); a != nil {
		return a.Type
	}
	i := s.OperandIndex(name)
	require.GreaterOrEqual(t, i, 0, "%s has no attribute or operand %s", op, name)
	require.NotEqual(t, ir.KindAny, s.Operands[i].Mutable, "%s.%s is no mutable attribute", op, name)
	return ir.AttrType{Kind: s.Operands[i].Mutable}
}

func TestGeneratedAttributeTypes(t *testing.T) {
	ctx := newContext(t)
	reads, writes := 0, 0
	for _, f := range append(ruleFiles(t), exampleFiles(t)...) {
		code, _, _ := generate(t, f, Config{Partial: true})
		if code == nil {
			continue
		}
		src := string(code)
		locs := classRE.FindAllStringSubmatchIndex(src, -1)
		for i, loc := range locs {
			end := len(src)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			body := src[loc[0]:end]
			where := filepath.Base(f) + ": " + src[loc[2]:loc[3]]
			bound := map[string]ir.AttrType{} // pattern attribute → the type of the attribute it binds
			for _, d := range opDeclRE.FindAllStringSubmatch(body, -1) {
				if d[1] != "pat" {
					continue
				}
				for _, b := range bindRE.FindAllStringSubmatch(d[3], -1) {
					bound[b[2]] = catalogType(t, ctx, d[2], b[1])
				}
			}
			for _, r := range readRE.FindAllStringSubmatch(body, -1) {
				typ, ok := bound[r[2]]
				if !assert.True(t, ok, "%s: Attr<%s>(%q) reads an attribute no source op binds", where, r[1], r[2]) {
					continue
				}
				assert.Equal(t, TypeOf(typ).Read, r[1], "%s: Attr(%q) of type %s", where, r[2], typ)
				reads++
			}
			for _, d := range opDeclRE.FindAllStringSubmatch(body, -1) {
				if d[1] != "res" {
					continue
				}
				for _, e := range attrEntries(d[3]) {
					want := catalogType(t, ctx, d[2], e[0])
					ct := TypeOf(want)
					switch {
					case strings.HasPrefix(e[1], "pat.Attr("):
						h := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(e[1], "pat.Attr("), ")"), `"`)
						assert.Equal(t, want, bound[h], "%s: %s.%s copies %s", where, d[2], e[0], h)
					case computeRE.MatchString(e[1]):
						assert.Equal(t, ct.Compute, computeRE.FindStringSubmatch(e[1])[1], "%s: %s.%s (%s)", where, d[2], e[0], want)
					case builderRE.MatchString(e[1]):
						assert.Equal(t, ct.Builder, builderRE.FindStringSubmatch(e[1])[1], "%s: %s.%s (%s)", where, d[2], e[0], want)
						// A builder's argument is evaluated when the pattern is declared, before any match.
						assert.NotContains(t, e[1], "match_ctx", "%s: %s.%s reads the match outside a ComputeAttr", where, d[2], e[0])
					default:
						t.Errorf("%s: %s.%s is set to %s, which the check does not know", where, d[2], e[0], e[1])
					}
					writes++
				}
			}
		}
	}
	t.Logf("%d attribute reads and %d result attributes checked", reads, writes)
	assert.Greater(t, reads, 100)
	assert.Greater(t, writes, 100)
}
