package rules_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/drr"
	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
	"github.com/pirdrr/drr/ir/pirjson"
	"github.com/pirdrr/drr/rewriter"
	"github.com/pirdrr/drr/rules"
)

// TestVersion4KindsAfterEveryShippedSet is issue 27 item 5: a version-4 PIR JSON program rewritten by any shipped
// rule set or Go pass is written with the attribute kinds of version 4 — the catalog's kinds with Paddle's patches
// up to 4 applied (pirjson.PatchedKind) — also on the ops the rewrites created (add_group_norm_silu.epsilon is a
// double there). The programs are the inputs of every golden archive, each made a version-4 program (written as
// version 4 and read back), rewritten for gpu:sm80 (so that fused_weight_only_linear fires) by the pipelines
// gpu_inference and inference, which hold every shipped set and Go pass, and by the pass the archive is for (the
// folder of a gpu_inference archive), written as version 4 and read back.
func TestVersion4KindsAfterEveryShippedSet(t *testing.T) {
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	reg := rewriter.NewRegistry()
	require.NoError(t, rules.Register(reg))
	target := ir.GPU(80)
	archives := goldenArchives(t, append([]string{gpuGoldenDir}, goldenDirs...)...)
	require.NotEmpty(t, archives)
	checked, created := 0, map[string]bool{}
	registered := map[string]bool{}
	for _, p := range reg.Passes() {
		registered[p.Name] = true
	}
	for _, a := range archives {
		names := []string{"gpu_inference", "inference"}
		if own := filepath.Base(filepath.Dir(a.path)); registered[own] {
			names = append(names, own)
		}
		for _, name := range names {
			pl, err := reg.Pipeline(ctx, name)
			require.NoError(t, err)
			params, err := drr.TargetParams(pl.Params(), nil, target)
			require.NoError(t, err)
			in, _, err := pirfile.Parse(ctx, a.name+".pir", []byte(a.input), pirfile.PIRText)
			require.NoError(t, err, a.name)
			in.Version = 1
			v4, err := pirjson.Marshal(in, pirjson.WriteOptions{Version: 4})
			require.NoError(t, err, a.name)
			prog, err := pirjson.Read(ctx, a.name+".json", v4, pirjson.ReadOptions{})
			require.NoError(t, err, a.name)
			require.Equal(t, 4, prog.Version)
			before := map[string]int{}
			for op := range prog.Walk() {
				before[op.Name()]++
			}
			opts := rewriter.Options{Target: target, Params: params}
			if _, err := pl.Run(prog, &rewriter.Env{Registry: reg, Options: opts}); err != nil {
				continue // a pass that cannot run on this input (value tensors PIR JSON refuses) has nothing to write
			}
			out, err := pirjson.Marshal(prog, pirjson.WriteOptions{})
			if err != nil {
				continue // value tensors, which PIR JSON does not take: the cleanup passes lower them
			}
			again, err := pirjson.Read(ctx, a.name+".out.json", out, pirjson.ReadOptions{})
			require.NoError(t, err, "%s after %s", a.name, name)
			assert.Equal(t, 4, again.Version)
			for op := range again.Walk() {
				if before[op.Name()] == 0 {
					created[op.Name()] = true
				}
				checked += checkVersion4Kinds(t, op, name+" on "+a.name)
			}
		}
	}
	t.Logf("%d attributes checked; ops created by the passes: %d kinds", checked, len(created))
	assert.True(t, created["pd_op.add_group_norm_silu"] && created["pd_op.fused_conv2d_add_act"] && created["pd_op.fc"] &&
		created["pd_op.weight_only_linear"] && created["pd_op.multihead_matmul"], "the fused ops were made: %v", created)
}

// checkVersion4Kinds compares the kinds of op's numeric attributes with the catalog's kinds patched to version 4;
// it returns how many it compared.
func checkVersion4Kinds(t *testing.T, op *ir.Op, where string) int {
	t.Helper()
	s := op.Schema()
	if s == nil {
		return 0
	}
	n := 0
	for _, na := range op.Attrs() {
		spec := s.Attr(na.Name)
		if spec == nil {
			continue
		}
		want := pirjson.PatchedKind(op.Name(), na.Name, spec.Type.Kind, 4)
		switch want {
		case ir.KindFloat, ir.KindDouble, ir.KindInt32, ir.KindInt64:
		default:
			continue
		}
		kinds := []ir.AttrKind{na.Value.Kind()}
		if spec.Type.Array {
			arr, ok := na.Value.(*ir.ArrayAttr)
			if !ok {
				continue
			}
			kinds = kinds[:0]
			for _, e := range arr.Elems {
				kinds = append(kinds, e.Kind())
			}
		}
		for _, k := range kinds {
			n++
			assert.Equal(t, want, k, "%s: %s.%s", where, op.Name(), na.Name)
		}
	}
	return n
}
