// Package analysis holds the analyses rules and passes need — which ops write which buffers, which values may share
// a buffer, which parameters the program can change — and the checks of rule sets that drrc check runs.
//
// Whole-program analyses follow golang.org/x/tools/go/analysis: an Analyzer names its prerequisites (Requires) and
// computes a result from a Pass; a Cache runs each analyzer at most once per program state and is invalidated when
// the program changes (the rewrite driver invalidates it from its listener).
//
// Facts the matcher needs while a program is being rewritten are answered by local queries instead (Buffers,
// Mutated, Aliased, DiesAt, …): they walk the use-def graph around the values asked about, so they are always
// current and cost time proportional to the neighbourhood, not to the program.
package analysis

import (
	"fmt"
	"sort"

	"github.com/pirdrr/drr/ir"
)

// Analyzer is a whole-program analysis.
type Analyzer struct {
	// Name identifies the analyzer (lower case, no spaces).
	Name string
	// Doc says what the result means.
	Doc string
	// Requires lists the analyzers whose results Run reads from Pass.ResultOf.
	Requires []*Analyzer
	// Run computes the result.
	Run func(*Pass) (any, error)
}

func (a *Analyzer) String() string { return a.Name }

// Pass is what an analyzer sees: the program and the results of the analyzers it requires.
type Pass struct {
	Analyzer *Analyzer
	Program  *ir.Program
	ResultOf map[*Analyzer]any
}

// Cache runs analyzers on one program and keeps their results until Invalidate.
type Cache struct {
	prog    *ir.Program
	results map[*Analyzer]any
	running map[*Analyzer]bool
}

// NewCache returns an empty cache for p.
func NewCache(p *ir.Program) *Cache {
	return &Cache{prog: p, results: map[*Analyzer]any{}, running: map[*Analyzer]bool{}}
}

// Program returns the program the cache analyses.
func (c *Cache) Program() *ir.Program { return c.prog }

// Get returns a's result, running a and its prerequisites if needed.
func (c *Cache) Get(a *Analyzer) (any, error) {
	if r, ok := c.results[a]; ok {
		return r, nil
	}
	if c.running[a] {
		return nil, fmt.Errorf("analysis: %s requires itself", a.Name)
	}
	c.running[a] = true
	defer delete(c.running, a)
	pass := &Pass{Analyzer: a, Program: c.prog, ResultOf: map[*Analyzer]any{}}
	for _, req := range a.Requires {
		r, err := c.Get(req)
		if err != nil {
			return nil, err
		}
		pass.ResultOf[req] = r
	}
	r, err := a.Run(pass)
	if err != nil {
		return nil, fmt.Errorf("analysis %s: %w", a.Name, err)
	}
	c.results[a] = r
	return r, nil
}

// Invalidate drops every cached result (the program changed).
func (c *Cache) Invalidate() { clear(c.results) }

// Analyzers lists the analyzers of this package.
var Analyzers = []*Analyzer{Mutation, Aliases, Params}

// Mutation maps every op that may write a buffer to the operand indices it writes. Result: MutationResult.
var Mutation = &Analyzer{
	Name: "mutation",
	Doc:  "which ops write which of their operands' buffers (inplace maps, unregistered ops, set_parameter)",
	Run: func(p *Pass) (any, error) {
		res := MutationResult{Writes: map[*ir.Op][]int{}}
		for op := range p.Program.Walk() {
			var ws []int
			for i := 0; i < op.NumOperands(); i++ {
				if Writes(op, i) {
					ws = append(ws, i)
				}
			}
			if len(ws) > 0 {
				res.Writes[op] = ws
				res.Ops = append(res.Ops, op)
			}
		}
		return res, nil
	},
}

// MutationResult is the result of Mutation.
type MutationResult struct {
	// Writes maps an op to the operand indices it writes.
	Writes map[*ir.Op][]int
	// Ops lists the writing ops in program order.
	Ops []*ir.Op
}

// Aliases partitions the program's values into buffer classes: values in one class may share storage. Result:
// AliasResult.
var Aliases = &Analyzer{
	Name: "aliases",
	Doc:  "classes of values that may share a buffer (views, inplace results, unregistered ops, control flow)",
	Run: func(p *Pass) (any, error) {
		uf := unionFind{parent: map[*ir.Value]*ir.Value{}}
		for op := range p.Program.Walk() {
			for _, l := range links(op) {
				uf.union(l[0], l[1])
			}
		}
		classes := map[*ir.Value][]*ir.Value{}
		for v := range uf.parent {
			r := uf.find(v)
			classes[r] = append(classes[r], v)
		}
		res := AliasResult{ClassOf: map[*ir.Value]int{}}
		names := ir.NumberValues(p.Program.Body())
		var list [][]*ir.Value
		for _, c := range classes {
			if len(c) > 1 {
				sort.Slice(c, func(i, j int) bool { return names.Name(c[i]) < names.Name(c[j]) })
				list = append(list, c)
			}
		}
		sort.Slice(list, func(i, j int) bool { return names.Name(list[i][0]) < names.Name(list[j][0]) })
		for i, c := range list {
			for _, v := range c {
				res.ClassOf[v] = i
			}
		}
		res.Classes = list
		return res, nil
	},
}

// AliasResult is the result of Aliases.
type AliasResult struct {
	// Classes are the buffer classes with more than one value.
	Classes [][]*ir.Value
	// ClassOf maps a value in some class to its index in Classes.
	ClassOf map[*ir.Value]int
}

// MayAlias reports whether a and b may share a buffer.
func (r AliasResult) MayAlias(a, b *ir.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := r.ClassOf[a]
	cb, ok2 := r.ClassOf[b]
	return ok1 && ok2 && ca == cb
}

// Params decides, for every parameter of the program, whether the program may change it: a parameter is mutable
// if a builtin.set_parameter writes its name, or if some op writes the buffer of a value that may share storage
// with the parameter's value. It also sets Variable.Mutable in Program.Params. Result: ParamsResult.
var Params = &Analyzer{
	Name:     "params",
	Doc:      "which parameters the program may change (set_parameter, or a write to the parameter's buffer)",
	Requires: []*Analyzer{Mutation, Aliases},
	Run: func(p *Pass) (any, error) {
		prog := p.Program
		prog.CollectParams()
		mut := p.ResultOf[Mutation].(MutationResult)
		al := p.ResultOf[Aliases].(AliasResult)
		written := map[int]bool{}
		var writtenVals = map[*ir.Value]bool{}
		for _, op := range mut.Ops {
			for _, i := range mut.Writes[op] {
				v := op.Operand(i)
				if v == nil {
					continue
				}
				writtenVals[v] = true
				if c, ok := al.ClassOf[v]; ok {
					written[c] = true
				}
			}
		}
		res := ParamsResult{Mutable: map[string]string{}}
		for op := range prog.Walk() {
			if op.Name() != ir.ParameterOpName && op.Name() != ir.GetParameterOpName || op.NumResults() != 1 {
				continue
			}
			name, _ := ir.AsString(op.Attr("parameter_name"))
			v := op.Result(0)
			vr := prog.Params[name]
			if vr == nil {
				continue
			}
			if vr.Mutable {
				if _, seen := res.Mutable[name]; !seen {
					res.Mutable[name] = "written by builtin.set_parameter"
				}
				continue
			}
			c, inClass := al.ClassOf[v]
			if writtenVals[v] || inClass && written[c] {
				vr.Mutable = true
				res.Mutable[name] = "its buffer is written by an op"
			}
		}
		return res, nil
	},
}

// ParamsResult is the result of Params.
type ParamsResult struct {
	// Mutable maps the name of every mutable parameter to the reason.
	Mutable map[string]string
}

type unionFind struct{ parent map[*ir.Value]*ir.Value }

func (u *unionFind) find(v *ir.Value) *ir.Value {
	p, ok := u.parent[v]
	if !ok {
		u.parent[v] = v
		return v
	}
	if p == v {
		return v
	}
	r := u.find(p)
	u.parent[v] = r
	return r
}

func (u *unionFind) union(a, b *ir.Value) {
	ra, rb := u.find(a), u.find(b)
	if ra != rb {
		u.parent[ra] = rb
	}
}
