package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pirdrr/drr/analysis"
	"github.com/pirdrr/drr/compare"
	"github.com/pirdrr/drr/feeds"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The real-model counts of DESIGN.md §9: on each corpus model, every eligible conv→bn(→act) chain fuses and no
// ineligible one does. Eligibility is decided here by checking the conditions of conv2d_bn_fold and of the
// activation fusions directly on each chain of the original program, independently of the matcher; the rewritten
// program is then inspected chain by chain.

// corpusRoot is shared/corpus, seen from this package's directory.
const corpusRoot = "../../shared/corpus"

// corpusModels are the models of the table, with the counts shared/reference/corpus.md gives for them (conv2d→bn,
// depthwise→bn, →act) and what the conv_bn_relu set must make of them (folded, activation fused).
var corpusModels = []struct {
	name, file                               string
	conv2d, depthwise, act, folded, actFused int
}{
	// conv2d→bn 55 (→relu 31), depthwise→bn 27 (→relu 24); inference batch norms: everything folds, the 31
	// conv2d relus fuse, the depthwise ones have no fused kernel.
	{"PP-OCRv5_server_det", "pir_json/nanaikaros__PP-OCRv5_server_det_infer.inference.json", 55, 27, 55, 82, 31},
	// BN already folded at export: conv→bn 2, →relu 1.
	{"PP-OCRv5_mobile_det", "pir_json/nanaikaros__PP-OCRv5_mobile_det_infer.inference.json", 2, 0, 1, 2, 1},
	{"ResNet18", "graphnet/graphnet_PaddleX_ResNet18.pir", 21, 0, 9, 21, 9},
	{"ResNet50", "graphnet/graphnet_PaddleX_ResNet50.pir", 53, 0, 33, 53, 33},
	// conv2d→bn 36 (→relu6 19), depthwise→bn 17 (→relu6 17), all is_test=false: nothing folds.
	{"MobileNetV2", "graphnet/graphnet_PaddleX_MobileNetV2_x1_0.pir", 36, 17, 36, 0, 0},
}

// chainActs are the activations a chain may end with (corpus.md's →act).
var chainActs = map[string]bool{"pd_op.relu": true, "pd_op.relu6": true, "pd_op.hardswish": true,
	"pd_op.swish": true, "pd_op.sigmoid": true, "pd_op.leaky_relu": true}

// fusedActs are the activations the conv_bn_relu set fuses into fused_conv2d_add_act with its default parameters:
// cuDNN's (family cudnn_act). The cutlass activations (sigmoid, swish, leaky_relu) need use_cutlass and a GPU
// target, as in Paddle.
var fusedActs = map[string]bool{"pd_op.relu": true}

// convChain is a conv2d/depthwise_conv2d whose result is operand 0 of a batch_norm(_), with the activation that is
// the single user of the batch norm's result, if any.
type convChain struct {
	conv, bn, act *ir.Op
	// filter is the name of the filter parameter, which identifies the chain in a rewritten program.
	filter string
	// actNote says why an activation reading the batch norm is not the chain's (the bn result has other users).
	actNote string
	// The expectations, from the rule conditions: fold (conv2d_bn_fold applies) and fuseAct (the activation then
	// joins the fused op); why* say why not.
	fold, fuseAct    bool
	foldWhy, fuseWhy string
}

func (c *convChain) kind() string { return strings.TrimPrefix(c.conv.Name(), "pd_op.") }

func (c *convChain) actName() string {
	if c.act == nil {
		return ""
	}
	return strings.TrimPrefix(c.act.Name(), "pd_op.")
}

// findChains lists the conv→bn(→act) chains of p in program order.
func findChains(t *testing.T, p *ir.Program) []*convChain {
	t.Helper()
	var out []*convChain
	for op := range p.Walk() {
		if op.Name() != "pd_op.batch_norm" && op.Name() != "pd_op.batch_norm_" {
			continue
		}
		conv := op.Operand(0).DefiningOp()
		if conv == nil || conv.Name() != "pd_op.conv2d" && conv.Name() != "pd_op.depthwise_conv2d" {
			continue
		}
		c := &convChain{conv: conv, bn: op, filter: analysis.ParamName(conv.Operand(1))}
		if c.filter == "" {
			t.Fatalf("the filter of %s is not a parameter", conv.Name())
		}
		out0 := op.Result(0)
		if out0.NumUses() == 1 {
			for _, u := range out0.Users() {
				if chainActs[u.Name()] {
					c.act = u
				}
			}
		} else {
			for _, u := range out0.Users() {
				if chainActs[u.Name()] {
					c.actNote = fmt.Sprintf("the batch norm's result has %d users (%s among them)", out0.NumUses(),
						strings.TrimPrefix(u.Name(), "pd_op."))
					break
				}
			}
		}
		out = append(out, c)
	}
	filters := map[string]bool{}
	for _, c := range out {
		if filters[c.filter] {
			t.Fatalf("filter %s is read by two chains; chains cannot be told apart after rewriting", c.filter)
		}
		filters[c.filter] = true
	}
	return out
}

// expect decides, from the conditions of conv2d_bn_fold (in its order: pattern, then where clauses) and of the
// activation fusions, what the conv_bn_relu set must do with the chain.
func (c *convChain) expect(p *ir.Program) {
	c.fold, c.foldWhy = foldable(p, c)
	if !c.fold {
		c.fuseWhy = "not folded"
		return
	}
	c.fuseAct, c.fuseWhy = actFusable(c)
}

func foldable(p *ir.Program, c *convChain) (bool, string) {
	conv, bn := c.conv, c.bn
	if n := conv.Result(0).NumUses(); n != 1 {
		return false, fmt.Sprintf("conv output has %d users", n)
	}
	for i := 1; i < 5; i++ {
		if bn.Operand(i) == nil {
			return false, "batch norm without scale or bias"
		}
	}
	for i := 1; i < bn.NumResults(); i++ {
		if bn.Result(i).HasUses() {
			return false, fmt.Sprintf("batch norm result %d is used", i)
		}
	}
	str := func(op *ir.Op, name string) string { s, _ := ir.AsString(op.AttrOrDefault(name)); return s }
	if pa := str(conv, "padding_algorithm"); pa != "EXPLICIT" && pa != "SAME" && pa != "VALID" {
		return false, "padding_algorithm " + pa
	}
	if f := str(conv, "data_format"); f != "NCHW" && f != "NHWC" || f != str(bn, "data_format") {
		return false, "data format " + f + "/" + str(bn, "data_format")
	}
	if g, _ := ir.AsInt(conv.AttrOrDefault("groups")); g < 1 {
		return false, "groups < 1"
	}
	if eps, _ := ir.AsFloat(bn.AttrOrDefault("epsilon")); eps < 0 || eps > 0.0010000001 {
		return false, fmt.Sprintf("epsilon %g", eps)
	}
	if analysis.BatchNormTraining(bn) {
		if isTest, _ := ir.AsBool(bn.AttrOrDefault("is_test")); !isTest {
			return false, "training-mode batch norm (is_test=false)"
		}
		return false, "training-mode batch norm (trainable_statistics)"
	}
	for _, v := range []*ir.Value{conv.Operand(1), bn.Operand(1), bn.Operand(2), bn.Operand(3), bn.Operand(4)} {
		if !analysis.Immutable(p, v) {
			return false, "mutable weight " + analysis.ParamName(v)
		}
	}
	if d := ir.ElemDType(conv.Operand(1).Type()); d != ir.DTypeFloat32 && d != ir.DTypeFloat64 {
		return false, "filter dtype " + d.String()
	}
	return true, ""
}

// actFusable decides whether the activation joins the folded convolution: the folded chain is conv2d + add(bias
// computed from parameters, a constant) + act, which conv2d_add_act (or conv2d_add then fused_conv2d_add_then_act)
// fuse for the activations of fusedActs.
func actFusable(c *convChain) (bool, string) {
	switch {
	case c.act == nil && c.actNote != "":
		return false, c.actNote
	case c.act == nil:
		return false, "no activation"
	case c.conv.Name() != "pd_op.conv2d":
		return false, "depthwise conv (fused_conv2d_add_act is a conv2d kernel)"
	case !fusedActs[c.act.Name()]:
		return false, "unsupported activation " + c.actName()
	}
	channels := ir.TensorOf(c.bn.Operand(2).Type()).NumElements()
	if out := ir.TensorOf(c.conv.Result(0).Type()).NumElements(); out == channels {
		return false, "bias has as many elements as the output"
	}
	return true, ""
}

// fetchSinks fetches the results of the program's sinks — top-level ops none of whose results is used, like the
// final add of the GraphNet captures, which have no fetch ops — so that rewriting keeps what the model computes
// (the driver erases unused ops without side effects, and with them the whole capture).
func fetchSinks(p *ir.Program) {
	ctx := p.Ctx
	var sinks []*ir.Op
	for op := range p.Body().Ops() {
		if op.NumResults() == 0 || op.HasUses() || op.Has(ir.SideEffects) || op.Name() == ir.ParameterOpName {
			continue
		}
		sinks = append(sinks, op)
	}
	b := ir.NewBuilder(ctx)
	b.SetInsertionPointToEnd(p.Body())
	for i, op := range sinks {
		v := op.Result(0)
		b.Create(ir.OpSpec{Name: "pd_op.fetch", Operands: []*ir.Value{v}, Results: []ir.Type{v.Type()},
			Attrs: []ir.NamedAttr{{Name: "name", Value: ctx.Str(fmt.Sprintf("sink_%d", i))},
				{Name: "col", Value: ctx.Int32(int32(i))}}})
	}
}

// chainOutcome is what a rewritten program did with a chain.
type chainOutcome struct {
	op                   *ir.Op // the op that now convolves with the chain's filter
	folded, actFused     bool
	residual, activation string
}

// outcome finds the chain's convolution in the rewritten program q: the conv2d, depthwise_conv2d or
// fused_conv2d_add_act whose filter is the chain's filter parameter, directly (not folded) or scaled by a multiply
// (folded), possibly through copies.
func (c *convChain) outcome(t *testing.T, q *ir.Program) chainOutcome {
	t.Helper()
	var found []chainOutcome
	for op := range q.Walk() {
		switch op.Name() {
		case "pd_op.conv2d", "pd_op.depthwise_conv2d", "pd_op.fused_conv2d_add_act":
		default:
			continue
		}
		name, folded := traceFilter(op.Operand(1))
		if name != c.filter {
			continue
		}
		o := chainOutcome{op: op, folded: folded}
		if op.Name() == "pd_op.fused_conv2d_add_act" {
			o.activation, _ = ir.AsString(op.AttrOrDefault("activation"))
			if op.Operand(3) != nil {
				o.residual = o.activation
			}
			o.actFused = c.act != nil && "pd_op."+o.activation == c.act.Name()
		}
		found = append(found, o)
	}
	if len(found) != 1 {
		t.Fatalf("chain %s (filter %s): %d convolutions read the filter after rewriting", c.kind(), c.filter, len(found))
	}
	return found[0]
}

// traceFilter follows a filter operand back to its parameter: through copies, and through the multiply that
// conv2d_bn_fold scales it with.
func traceFilter(v *ir.Value) (param string, folded bool) {
	for v != nil {
		d := v.DefiningOp()
		if d == nil {
			return "", folded
		}
		switch d.Name() {
		case ir.ParameterOpName, ir.GetParameterOpName:
			return analysis.ParamName(v), folded
		case "pd_op.multiply", "pd_op.multiply_":
			folded = true
			v = d.Operand(0)
		case "pd_op.to_vtensor", "pd_op.to_tensor", "pd_op.assign", "pd_op.assign_":
			v = d.Operand(0)
		default:
			return "", folded
		}
	}
	return "", folded
}

// corpusRow is one line of the table.
type corpusRow struct {
	model, run                           string
	chains, conv2d, depthwise, withAct   int
	folded, actFused, residual, bnBefore int
	bnAfter                              int
	left                                 map[string]int // reason → chains not folded
	actLeft                              map[string]int // reason → folded chains with an activation that stays
	rewrites                             string
}

func TestCorpusConvBnChains(t *testing.T) {
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skipf("the corpus is absent (%s): %v", corpusRoot, err)
	}
	var rows []corpusRow
	for _, m := range corpusModels {
		path := filepath.Join(corpusRoot, m.file)
		if _, err := os.Stat(path); err != nil {
			t.Logf("skipping %s: %v", m.name, err)
			continue
		}
		for _, run := range []struct{ name, passes string }{{"conv_bn_relu", "conv_bn_relu"}, {"inference", "inference"}} {
			t.Run(m.name+"/"+run.name, func(t *testing.T) {
				row := checkCorpusModel(t, path, run.passes)
				row.model, row.run = m.name, run.name
				rows = append(rows, row)
				got := [5]int{row.conv2d, row.depthwise, row.withAct, row.folded, row.actFused}
				if want := [5]int{m.conv2d, m.depthwise, m.act, m.folded, m.actFused}; got != want {
					t.Errorf("conv2d→bn, depthwise→bn, →act, folded, act fused = %v, want %v", got, want)
				}
			})
		}
	}
	if len(rows) > 0 {
		t.Log("\n" + corpusTable(rows))
	}
}

func checkCorpusModel(t *testing.T, path, passes string) corpusRow {
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := pirfile.Load(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fetchSinks(p)
	chains := findChains(t, p)
	row := corpusRow{chains: len(chains), left: map[string]int{}, actLeft: map[string]int{}}
	for op := range p.Walk() {
		if op.Name() == "pd_op.batch_norm" || op.Name() == "pd_op.batch_norm_" {
			row.bnBefore++
		}
	}
	for _, c := range chains {
		c.expect(p)
		if c.conv.Name() == "pd_op.conv2d" {
			row.conv2d++
		} else {
			row.depthwise++
		}
		if c.act != nil {
			row.withAct++
		}
	}

	q := p.Clone()
	results := runPasses(t, q, passes)
	var stats []string
	for _, r := range results {
		if r.Stats == nil {
			continue
		}
		for _, rs := range r.Stats.Rules {
			if rs.Applied > 0 {
				stats = append(stats, fmt.Sprintf("%s %d", rs.Name, rs.Applied))
			}
		}
		if r.Stats.StopReason != "converged" {
			t.Errorf("pass %s: %s", r.Pass, r.Stats.StopReason)
		}
	}
	row.rewrites = strings.Join(stats, ", ")

	folds := 0
	for _, c := range chains {
		o := c.outcome(t, q)
		if o.folded != c.fold {
			t.Errorf("%s chain (filter %s, bn %s): folded = %v, want %v (%s)", c.kind(), c.filter, c.bn.Name(),
				o.folded, c.fold, c.foldWhy)
		}
		if c.act != nil && o.actFused != c.fuseAct {
			t.Errorf("%s chain (filter %s) → %s: activation fused = %v (op %s, activation %q), want %v (%s)",
				c.kind(), c.filter, c.actName(), o.actFused, o.op.Name(), o.activation, c.fuseAct, c.fuseWhy)
		}
		if c.act == nil && o.activation != "" && o.activation != "identity" && o.residual == "" {
			t.Errorf("%s chain (filter %s) has no activation, but its fused op applies %q", c.kind(), c.filter, o.activation)
		}
		switch {
		case !c.fold:
			row.left[c.foldWhy]++
		default:
			folds++
			row.folded++
			if c.fuseAct {
				row.actFused++
			} else if c.act != nil {
				row.actLeft[c.fuseWhy]++
			}
			if o.residual != "" {
				row.residual++
			}
		}
	}
	for op := range q.Walk() {
		if op.Name() == "pd_op.batch_norm" || op.Name() == "pd_op.batch_norm_" {
			row.bnAfter++
		}
	}
	if row.bnAfter != row.bnBefore-folds {
		t.Errorf("%d batch norms after rewriting, want %d (%d before, %d folded)", row.bnAfter, row.bnBefore-folds,
			row.bnBefore, folds)
	}

	// The rewritten program is valid and round-trips through both formats.
	if ds := ir.Verify(q).Errors(); len(ds) > 0 {
		t.Fatalf("the rewritten program does not verify:\n%s", ds.Error())
	}
	text := pirtext.Print(q, pirtext.WriteOptions{})
	qt, _, err := pirtext.Parse(ctx, "rewritten.pir", text, pirtext.ReadOptions{})
	if err != nil {
		t.Fatalf("the printed program does not parse: %v", err)
	}
	if err := ir.Equal(q, qt, ir.EqualOptions{}); err != nil {
		t.Errorf("text round trip: %v", err)
	}
	if text2 := pirtext.Print(qt, pirtext.WriteOptions{}); string(text2) != string(text) {
		t.Errorf("text round trip: printing the parsed program gives other text")
	}
	js, err := pirjson.Marshal(q, pirjson.WriteOptions{})
	if err != nil {
		t.Fatalf("the rewritten program does not marshal to JSON: %v", err)
	}
	qj, err := pirjson.Read(ctx, "rewritten.json", js, pirjson.ReadOptions{})
	if err != nil {
		t.Fatalf("the JSON program does not read back: %v", err)
	}
	// PIR JSON stores a parameter's is_distributed, is_parameter, need_clip and trainable in fixed slots, so reading
	// it back adds them (with default values) to parameter ops that did not carry them: the GraphNet captures, which
	// come from text. Those are the only differences allowed; the JSON must be a fixpoint.
	if err := ir.Equal(q, qj, ir.EqualOptions{IgnoreAttrs: []string{"is_distributed", "is_parameter", "need_clip",
		"trainable"}}); err != nil {
		t.Errorf("JSON round trip: %v", err)
	}
	if js2, err := pirjson.Marshal(qj, pirjson.WriteOptions{}); err != nil || string(js2) != string(js) {
		t.Errorf("JSON round trip: writing the read program gives other JSON (%v)", err)
	}
	return row
}

// TestCorpusPreservesValues runs every corpus model before and after the inference pipeline in the reference
// interpreter, on random weights and a small input (GraphNet captures at 1×3×32×32, the OCR models with 32 for
// their dynamic sizes): folding and fusing the batch norms must not change what a model computes.
func TestCorpusPreservesValues(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates every corpus model twice")
	}
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skipf("the corpus is absent (%s): %v", corpusRoot, err)
	}
	for _, m := range corpusModels {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(corpusRoot, m.file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s is absent: %v", path, err)
			}
			ctx, err := ir.NewDefaultContext()
			if err != nil {
				t.Fatal(err)
			}
			p, _, err := pirfile.Load(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			fetchSinks(p)
			q := p.Clone()
			runPasses(t, q, "inference")
			opts := compare.Options{Runs: 1, Options: feeds.Options{DynamicSize: 32}}
			if strings.HasPrefix(m.file, "graphnet/") {
				opts.InputShapes = map[string][]int{"data_0": {1, 3, 32, 32}}
				opts.IgnoreDeclaredShapes = true
			}
			rep, err := compare.Programs(p, q, opts)
			if err != nil {
				if rep != nil {
					t.Fatalf("%v\n%s", err, rep)
				}
				t.Fatal(err)
			}
			t.Logf("%s", rep)
		})
	}
}

func corpusTable(rows []corpusRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %-12s %-28s %-7s %-10s %s\n", "model", "run", "chains (conv2d+dw, →act)", "folded",
		"act fused", "left and why")
	for _, r := range rows {
		chains := fmt.Sprintf("%d (%d+%d, →act %d)", r.chains, r.conv2d, r.depthwise, r.withAct)
		folded := fmt.Sprintf("%d", r.folded)
		act := fmt.Sprintf("%d", r.actFused)
		var why []string
		for _, part := range []struct {
			prefix string
			m      map[string]int
		}{{"not folded: ", r.left}, {"act stays: ", r.actLeft}} {
			var keys []string
			for k := range part.m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				why = append(why, fmt.Sprintf("%s%d %s", part.prefix, part.m[k], k))
			}
		}
		if r.residual > 0 {
			why = append(why, fmt.Sprintf("(%d also took a residual add + relu)", r.residual))
		}
		if len(why) == 0 {
			why = []string{"-"}
		}
		fmt.Fprintf(&b, "%-20s %-12s %-28s %-7s %-10s %s\n", r.model, r.run, chains, folded, act, strings.Join(why, "; "))
		fmt.Fprintf(&b, "%-20s %-12s   rewrites: %s; batch norms %d → %d\n", "", "", r.rewrites, r.bnBefore, r.bnAfter)
	}
	return b.String()
}
