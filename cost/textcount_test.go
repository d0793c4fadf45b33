package cost_test

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// textCount counts the runtime and load-time ops of a program by a walk over its printed text (PIR text, one op per
// line), independently of package cost's walk over the IR: a second implementation of the definitions in the
// package documentation, which the corpus test holds the model's figures to. It reads only the text and the op
// catalog (which ops have side effects, which write an operand in place).
type textCount struct {
	Ops, Runtime, LoadTime int
}

var (
	opLine   = regexp.MustCompile(`^\(([^)]*)\) = (?:"([^"]+)"|([\w.]+))\s*\(([^)]*)\)`)
	argLine  = regexp.MustCompile(`^\^(.*)$`)
	valueID  = regexp.MustCompile(`%[A-Za-z0-9_]+`)
	opNameAt = regexp.MustCompile(`op_name:"([^"]+)"`)
)

// countText walks the text of a program printed by pirtext.Print.
func countText(ctx *ir.Context, text string) (textCount, error) {
	var c textCount
	runtime := map[string]bool{}
	// A frame is an op with regions being read: whether its inputs are runtime (its block arguments are then), the
	// ids of its results, and whether a runtime compute op was met inside.
	type frame struct {
		inputs, nested, fused bool
		results               []string
		name                  string
	}
	var stack []*frame
	for n, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line == "{" && n == 0:
			continue
		case line == "}" || line == "} else {":
			if line == "}" && len(stack) > 0 {
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if f.nested && !f.fused {
					for _, r := range f.results {
						runtime[r] = true
					}
				}
				if f.fused {
					// A fused region is one compute op: runtime when its inputs or an op inside are.
					rt := f.inputs || f.nested
					for _, r := range f.results {
						runtime[r] = rt
					}
					if rt {
						c.Runtime++
					} else {
						c.LoadTime++
					}
					if rt {
						for _, g := range stack {
							g.nested = true
						}
					}
				}
			}
			continue
		}
		if m := argLine.FindStringSubmatch(line); m != nil {
			if len(stack) == 0 {
				return c, fmt.Errorf("line %d: block arguments outside a region", n+1)
			}
			for _, id := range valueID.FindAllString(m[1], -1) {
				runtime[id] = stack[len(stack)-1].inputs
			}
			continue
		}
		m := opLine.FindStringSubmatch(line)
		if m == nil {
			return c, fmt.Errorf("line %d: not an op: %.80s", n+1, line)
		}
		c.Ops++
		results := valueID.FindAllString(m[1], -1)
		name := m[2] + m[3]              // quoted, or bare in the custom form of ops with regions (cinn_op.group)
		if strings.Contains(name, "(") { // a kernel-dialect op: data(phi_kernel) runs pd_op.data
			if k := opNameAt.FindStringSubmatch(line); k != nil {
				name = k[1]
			}
		}
		// Operands are printed ", "-separated, an absent one as <<NULL VALUE>> (its position still counts).
		var operands []string
		if strings.TrimSpace(m[4]) != "" {
			for _, tok := range strings.Split(m[4], ", ") {
				operands = append(operands, valueID.FindString(tok))
			}
		}
		schema := ctx.Schema(name)
		inRuntime := false
		for _, o := range operands {
			inRuntime = inRuntime || o != "" && runtime[o]
		}
		opensRegion := strings.HasSuffix(line, "{")
		fused := name == "cinn_op.group"
		sink := name == "pd_op.fetch" || name == "builtin.shadow_output" || name == "builtin.set_parameter"
		input := name == "pd_op.data" || name == "pd_op.feed"
		param := name == "builtin.parameter" || name == "builtin.get_parameter"
		plumbing := name == "builtin.combine" || name == "builtin.split" || name == "builtin.slice" ||
			strings.HasPrefix(name, "cf.") || opensRegion && !fused
		constant := schema != nil && len(operands) == 0 && !schema.Has(ir.SideEffects)
		var rt bool
		switch {
		case input:
			rt = true
		case schema == nil:
			rt = inRuntime || len(operands) == 0
		default:
			rt = inRuntime || schema.Has(ir.SideEffects) && !sink && !opensRegion
		}
		if len(stack) > 0 && stack[len(stack)-1].fused {
			// Inside a fused region: counted through the region.
			for _, r := range results {
				runtime[r] = rt
			}
			if rt {
				stack[len(stack)-1].nested = true
			}
			continue
		}
		if opensRegion {
			stack = append(stack, &frame{inputs: inRuntime, results: results, name: name, fused: fused})
			for _, r := range results {
				runtime[r] = inRuntime
			}
			continue
		}
		for _, r := range results {
			runtime[r] = rt
		}
		if rt && schema != nil {
			for _, io := range schema.Inplace {
				if io.Operand < len(operands) && operands[io.Operand] != "" {
					runtime[operands[io.Operand]] = true
				}
			}
		}
		if input || param || sink || plumbing || constant {
			continue
		}
		if rt {
			c.Runtime++
			for _, f := range stack {
				f.nested = true // a runtime op anywhere inside makes every enclosing region op's results runtime
			}
		} else {
			c.LoadTime++
		}
	}
	if len(stack) > 0 {
		return c, fmt.Errorf("%d regions not closed", len(stack))
	}
	return c, nil
}
