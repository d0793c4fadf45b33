package pirjson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
)

// program wraps ops in a program of the given version, in the writer's layout.
func program(version string, ops ...string) string {
	return `{"base_code":{"magic":"pir","trainable":true,"version":` + version + `},"program":{"regions":[{"#":"region_0",` +
		`"blocks":[{"#":"block_0","args":[],"ops":[` + strings.Join(ops, ",") + `]}]}]}}`
}

const (
	paramOp  = `{"#":"p","A":[0,1,1,"x"],"DA":[],"O":{"%":1,"TT":` + denseF32 + `},"OA":[1,0,1],"QA":[]}`
	denseF32 = `{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}`
	sgFalse  = `[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":false}]},"N":"stop_gradient"}]`
)

// unary is an op reading value 1 and defining value 2 with the given attribute entries.
func unary(name, attrs string) string {
	return `{"#":"` + name + `","A":[` + attrs + `],"I":[{"%":1}],"O":[{"%":2,"TT":` + denseF32 + `}],"OA":` + sgFalse + `}`
}

func entry(name, attr string) string { return `{"AT":` + attr + `,"N":"` + name + `"}` }

func f32s(vals ...string) string {
	var parts []string
	for _, v := range vals {
		parts = append(parts, `{"#":"0.a_f32","D":`+v+`}`)
	}
	return `{"#":"0.a_array","D":[` + strings.Join(parts, ",") + `]}`
}

func f64s(vals ...string) string {
	return strings.ReplaceAll(f32s(vals...), "a_f32", "a_f64")
}

// TestVersions is acceptance test 7, with the other patch kinds: writing a newer version than the program's
// applies the attribute upgrades of the patches in between; the default writes the version read; unknown versions
// are errors.
func TestVersions(t *testing.T) {
	str := entry("struct_name", `{"#":"0.a_str","D":"/m/"}`)
	tests := []struct {
		name    string
		from    string
		to      int
		in, out string
	}{
		{"nearest_interp scale f32[] to f64[] (patch 4)", "1", 4,
			unary("1.nearest_interp", entry("data_format", `{"#":"0.a_str","D":"NCHW"}`)+","+
				entry("scale", f32s("2.0", "0.8999999761581421"))+","+str),
			unary("1.nearest_interp", entry("data_format", `{"#":"0.a_str","D":"NCHW"}`)+","+
				entry("scale", f64s("2.0", "0.8999999761581421"))+","+str)},
		{"leaky_relu negative_slope f32 to f64 (patch 4)", "3", 4,
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f32","D":0.009999999776482582}`)),
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f64","D":0.009999999776482582}`))},
		{"patch 4 not applied below version 4", "1", 3,
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f32","D":0.5}`)),
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f32","D":0.5}`))},
		{"pool2d strides i32[] to i64[] (patch 2)", "1", 2,
			unary("1.pool2d", entry("strides", `{"#":"0.a_array","D":[{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":2}]}`)),
			unary("1.pool2d", entry("strides", `{"#":"0.a_array","D":[{"#":"0.a_i64","D":2},{"#":"0.a_i64","D":2}]}`))},
		{"kthvalue k to i64 (patch 3)", "2", 3,
			unary("1.kthvalue", entry("k", `{"#":"0.a_i32","D":3}`)),
			unary("1.kthvalue", entry("k", `{"#":"0.a_i64","D":3}`))},
		{"repeat_interleave gains output_size before struct_name (patch 3)", "1", 3,
			unary("1.repeat_interleave", entry("repeats", `{"#":"0.a_i32","D":2}`)+","+str),
			unary("1.repeat_interleave", entry("repeats", `{"#":"0.a_i32","D":2}`)+","+
				entry("output_size", `{"#":"0.a_i64","D":-1}`)+","+str)},
		{"slogdet gains a result (patch 2)", "1", 2,
			unary("1.slogdet", ""),
			strings.Replace(unary("1.slogdet", ""), `}],"OA"`, `},{"%":3,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1],"NCHW",[],0]}}],"OA"`, 1)},
		{"default keeps the version", "3", 0,
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f32","D":0.5}`)),
			unary("1.leaky_relu", entry("negative_slope", `{"#":"0.a_f32","D":0.5}`))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Read(ir.NewContext(), "v.json", []byte(program(tt.from, paramOp, tt.in)), ReadOptions{})
			require.NoError(t, err)
			from := int(tt.from[0] - '0')
			assert.Equal(t, from, p.Version)
			out, err := Marshal(p, WriteOptions{Version: tt.to})
			require.NoError(t, err)
			to := tt.from
			if tt.to != 0 {
				to = itoa(int64(tt.to))
			}
			assert.Equal(t, program(to, paramOp, tt.out), string(out))
			again, err := Read(ir.NewContext(), "again.json", out, ReadOptions{})
			require.NoError(t, err, "the upgraded file reads")
			assert.Equal(t, int(to[0]-'0'), again.Version)
		})
	}
}

func TestVersionErrors(t *testing.T) {
	p, err := Read(ir.NewContext(), "v.json", []byte(program("3", paramOp)), ReadOptions{})
	require.NoError(t, err)
	_, err = Marshal(p, WriteOptions{Version: 2})
	assert.EqualError(t, err, "pirjson: cannot write PIR JSON version 2: the program is version 3 (downgrades are not supported)")
	_, err = Marshal(p, WriteOptions{Version: 5})
	assert.EqualError(t, err, "pirjson: cannot write: unsupported PIR JSON version 5 (this build reads 1…4)")
	p.Version = 9
	_, err = Marshal(p, WriteOptions{})
	assert.EqualError(t, err, "pirjson: Program.Version: unsupported PIR JSON version 9 (this build reads 1…4)")

	_, err = Read(ir.NewContext(), "v99.json", []byte(program("99", paramOp)), ReadOptions{})
	assert.EqualError(t, err, "v99.json:1:56: error: /base_code/version: unsupported PIR JSON version 99 (this build reads 1…4)")
}

// TestPatchTable checks the patch data against Paddle's patch files: every action is well formed, and the
// versions are the ones this build claims to read.
func TestPatchTable(t *testing.T) {
	for v, ops := range patches {
		assert.True(t, v > MinVersion && v <= MaxVersion, "patch %d", v)
		for _, p := range ops {
			assert.NotEmpty(t, p.actions, p.op)
			for _, a := range p.actions {
				switch a.kind {
				case modifyAttr:
					assert.NotEmpty(t, a.attr)
				case addAttr:
					assert.NotNil(t, a.def(ir.NewContext()))
				case addOutput:
					assert.NotNil(t, a.typ(ir.NewContext()))
				}
			}
		}
	}
	assert.Nil(t, newUpgrade(4, 4))
	assert.Len(t, newUpgrade(1, 4)["pd_op.nearest_interp"], 1)
}

// TestCreatedOpsGetTheKindsOfTheVersionWritten: an op of a version-4 program that has the catalog's version-1 kinds
// — what a rewrite creates (add_group_norm_silu with a float epsilon) — is written with the version-4 kinds; ops
// that have them already are written as they are, and a program written as version 1 keeps version-1 kinds.
func TestCreatedOpsGetTheKindsOfTheVersionWritten(t *testing.T) {
	created := unary("1.add_group_norm_silu", entry("epsilon", `{"#":"0.a_f32","D":9.999999747378752e-06}`))
	patched := unary("1.add_group_norm_silu", entry("epsilon", `{"#":"0.a_f64","D":9.999999747378752e-06}`))
	p, err := Read(ir.NewContext(), "v4.json", []byte(program("4", paramOp, created)), ReadOptions{})
	require.NoError(t, err)
	out, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, program("4", paramOp, patched), string(out))

	p, err = Read(ir.NewContext(), "v4.json", []byte(program("4", paramOp, patched)), ReadOptions{})
	require.NoError(t, err)
	out, err = Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, program("4", paramOp, patched), string(out), "a version-4 program round-trips")

	p, err = Read(ir.NewContext(), "v1.json", []byte(program("1", paramOp, created)), ReadOptions{})
	require.NoError(t, err)
	out, err = Marshal(p, WriteOptions{})
	require.NoError(t, err)
	assert.Equal(t, program("1", paramOp, created), string(out), "version 1 keeps version-1 kinds")
}

// TestPatchedKind: the kind an attribute has in a version, from its version-1 kind and the patches up to it.
func TestPatchedKind(t *testing.T) {
	for _, tc := range []struct {
		op, attr string
		k        ir.AttrKind
		v        int
		want     ir.AttrKind
	}{
		{"pd_op.add_group_norm_silu", "epsilon", ir.KindFloat, 4, ir.KindDouble},
		{"pd_op.add_group_norm_silu", "epsilon", ir.KindFloat, 3, ir.KindFloat},
		{"pd_op.pool2d", "strides", ir.KindInt32, 2, ir.KindInt64},
		{"pd_op.kthvalue", "k", ir.KindInt32, 4, ir.KindInt64},
		{"pd_op.p_norm_grad", "porder", ir.KindFloat, 4, ir.KindDouble},
		{"pd_op.layer_norm", "epsilon", ir.KindFloat, 4, ir.KindFloat},
		{"pd_op.matmul", "transpose_x", ir.KindBool, 4, ir.KindBool},
	} {
		assert.Equal(t, tc.want, PatchedKind(tc.op, tc.attr, tc.k, tc.v), "%s.%s in version %d", tc.op, tc.attr, tc.v)
	}
}
