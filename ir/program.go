package ir

import (
	"iter"
	"sort"
)

// ModuleOpName is the name of the op that owns a program's top-level region.
const ModuleOpName = "builtin.module"

// Parameter op names: builtin.parameter reads a weight (builtin.get_parameter in older prints), and
// builtin.set_parameter writes one.
const (
	ParameterOpName    = "builtin.parameter"
	GetParameterOpName = "builtin.get_parameter"
	SetParameterOpName = "builtin.set_parameter"
)

// Program is a whole model: a module op whose single region holds the top-level block, and the weights, a table
// from parameter name to Variable (seed 000 §2.1.4).
type Program struct {
	// Ctx is the Context the program's types, attributes and ops belong to.
	Ctx *Context
	// Module is the builtin.module op; its region 0, block 0 is the program body.
	Module *Op
	// Params maps a parameter name to its variable. Readers fill it from the parameter ops; see CollectParams.
	Params map[string]*Variable
	// File is the path the program was read from ("" if built in memory).
	File string
	// Version and Trainable are the PIR JSON base_code fields (for programs read from JSON; JSON writers default
	// to version 1, trainable true).
	Version   int
	Trainable bool
	// Feeds describes the program's inputs (the pd_op.data ops) by feed name, when the source recorded more than
	// their types: GraphNet's input_meta.py gives each input's statistics and, for small inputs such as token ids,
	// its data. A feed's Type is the recorded sample's shape, which is concrete where the data op's type may have
	// dynamic (-1) dims. The interpreter draws inputs from it; nil when the source recorded nothing.
	Feeds map[string]*Variable

	alloc *Allocator
}

// Allocator returns the allocator of the program's ops: readers build the program with it, and the rewrite driver
// creates ops with it, so that the records of ops it erased can serve the ops it creates (see Allocator.Reuse).
func (p *Program) Allocator() *Allocator {
	if p.alloc == nil {
		p.alloc = &Allocator{}
	}
	return p.alloc
}

// Variable is a weight of a program: its type, its data if loaded, and whether the program may change it.
type Variable struct {
	Name string
	Type Type
	// Data holds the raw little-endian elements, or nil if the weights were not loaded.
	Data []byte
	// Mutable is true if the program writes the parameter (set_parameter, or an inplace op on its value); folding
	// transformations (conv+bn) are legal only on immutable weights.
	Mutable bool
	// Stats are the value statistics the source recorded in place of data (GraphNet's weight_meta.py and
	// input_meta.py), or nil. The interpreter draws values from them when Data is nil.
	Stats *TensorStats
	// OriginalName is the name the tensor had in the model the program was captured from, when the source renamed
	// it and recorded the original: GraphNet names weights parameter_N and inputs data_N, and records for some of
	// them the model's name ("linear_72.w_0", "input_ids"). Programs read from GraphNet keep GraphNet's names
	// (unique, and what model.py uses); "" when nothing was recorded.
	OriginalName string
}

// TensorStats are summary statistics of a tensor's values: what GraphNet records of weights and inputs instead of
// their data.
type TensorStats struct {
	Min, Max, Mean, Std float64
	// Missing lists the statistics the source did not record (their fields are then 0). GraphNet records no mean
	// and std for integer tensors and for some float ones, and no min or max for a few inputs; its own harness then
	// draws integers uniformly from [Min, Max], floats uniformly from [Min, Max] when mean or std is missing (from a
	// normal distribution with Mean and Std, clipped to [Min, Max], otherwise), and takes 0 for a missing Min and 2
	// for a missing Max. The zero value means all four were recorded.
	Missing StatFields
}

// StatFields is a set of the statistics of TensorStats.
type StatFields uint8

// The statistics of TensorStats, for TensorStats.Missing.
const (
	StatMin StatFields = 1 << iota
	StatMax
	StatMean
	StatStd
)

// Has reports whether the source recorded every statistic in f.
func (s *TensorStats) Has(f StatFields) bool { return s.Missing&f == 0 }

// NewProgram returns an empty program: a module with one empty block.
func NewProgram(ctx *Context) *Program {
	m := ctx.NewOp(OpSpec{Name: ModuleOpName, Regions: 1})
	m.regionSlice()[0].AddBlock()
	return &Program{Ctx: ctx, Module: m, Params: map[string]*Variable{}, Version: 1, Trainable: true}
}

// Body returns the top-level block.
func (p *Program) Body() *Block { return p.Module.regionSlice()[0].blocks[0] }

// Walk iterates over every op of the program in pre-order (an op before the ops of its regions), including nested
// ones. Erasing the current op is safe; its nested ops are then not visited.
func (p *Program) Walk() iter.Seq[*Op] { return WalkBlock(p.Body()) }

// NumOps returns the number of ops in the program, nested ones included.
func (p *Program) NumOps() int { return numOps(p.Body()) }

// numOps counts the ops of b and of the regions nested in them: blocks know their length and how many of their ops
// have regions, so only a block with such ops needs a look inside (a walk over a large rewritten program's ops,
// scattered in memory, took 0.1 s at gen.py's 1M blocks).
func numOps(b *Block) int {
	n := b.len
	if b.nested == 0 {
		return n
	}
	for op := b.first; op != nil; op = op.next {
		if op.ext != nil {
			for _, r := range op.ext.regions {
				for _, nb := range r.blocks {
					n += numOps(nb)
				}
			}
		}
	}
	return n
}

// ParamNames returns the names of the program's parameters, sorted.
func (p *Program) ParamNames() []string {
	names := make([]string, 0, len(p.Params))
	for n := range p.Params {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParamOf returns the variable a value reads if it is the result of a parameter op, or nil.
func (p *Program) ParamOf(v *Value) *Variable {
	if v == nil {
		return nil
	}
	d := v.def()
	if d == nil {
		return nil
	}
	switch d.info.Name {
	case ParameterOpName, GetParameterOpName:
		if name, ok := AsString(d.Attr("parameter_name")); ok {
			return p.Params[name]
		}
	}
	return nil
}

// CollectParams rebuilds Params from the program's parameter ops, keeping what was known of variables that remain
// (their original name, and their data and statistics if their type is unchanged): a
// parameter read by builtin.parameter (or get_parameter) is immutable unless some builtin.set_parameter writes the
// same name. Inplace writes to parameters are found by the analysis package, which can mark them mutable too.
func (p *Program) CollectParams() {
	old := p.Params
	p.Params = map[string]*Variable{}
	var written []*Op
	ctx := p.Ctx
	param, get, set := ctx.OpInfo(ParameterOpName), ctx.OpInfo(GetParameterOpName), ctx.OpInfo(SetParameterOpName)
	for op := range p.Walk() {
		switch op.info {
		case param, get:
			name, ok := AsString(op.Attr("parameter_name"))
			if !ok || op.NumResults() == 0 {
				continue
			}
			if _, seen := p.Params[name]; seen {
				continue
			}
			v := &Variable{Name: name, Type: op.Result(0).Type()}
			if o := old[name]; o != nil {
				v.OriginalName = o.OriginalName
				if o.Type == v.Type {
					v.Data, v.Stats = o.Data, o.Stats
				}
			}
			p.Params[name] = v
		case set:
			written = append(written, op)
		}
	}
	for _, op := range written {
		name, ok := AsString(op.Attr("parameter_name"))
		if !ok {
			continue
		}
		if v := p.Params[name]; v != nil {
			v.Mutable = true
		} else {
			t := Type(ctx.NullType())
			if op.NumOperands() > 0 && op.Operand(0) != nil {
				t = op.Operand(0).Type()
			}
			p.Params[name] = &Variable{Name: name, Type: t, Mutable: true}
		}
	}
}
