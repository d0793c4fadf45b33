package paddle

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/diag"
	"github.com/pirdrr/drr/drr"
)

// generateSource generates the C++ of a rule file given as text.
func generateSource(t *testing.T, src string, cfg Config) ([]byte, Result, diag.Diagnostics) {
	t.Helper()
	ctx := newContext(t)
	set, diags := drr.LoadSource(ctx, drr.LoadOptions{}, "t.drr", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	if cfg.Name == "" {
		cfg.Name = "t"
	}
	return Generate(set, diag.Position{Filename: "t.drr", Line: 1, Column: 1}, cfg)
}

// TestRefusals: what Paddle's DRR cannot express, or would match differently, is an error at the construct's
// position naming it, and no code is written.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, src, pos, want string
	}{
		{"variadic operands", `
rule r {
  match {
    %y = pd_op.concat([%xs...], %a)
  }
  rewrite {
    replace %y with pd_op.relu(%y)
  }
}`, "t.drr:4:", "a variadic operand list"},
		{"users group", `
rule r {
  match {
    %y = pd_op.matmul(each(3, 8) %x, %w)
  }
  rewrite {
    %p = pd_op.matmul(%x, pd_op.concat([%w...], pd_op.full() {shape: [1], value: 1.0}))
    %parts... = builtin.split(pd_op.split(%p, pd_op.full_int_array() {value: [dim(%w, 1)...]}, pd_op.full() {shape: [1], value: -1.0}))
    replace %y... with %parts...
  }
}`, "t.drr:4:23", "a users group has no Paddle DRR form: Paddle writes such a pass by hand"},
		{"type pattern", `
rule r {
  match {
    %y = pd_op.relu(%x: tensor<?xf32>)
  }
  rewrite {
    replace %y with %x
  }
}`, "t.drr:4:", "the type pattern of %x"},
		{"inner value read outside", `
rule r {
  match {
    %a = pd_op.relu(%x)
    %b = pd_op.relu(%a)
  }
  where {
    uses(%a) >= 1
  }
  rewrite {
    replace %b with %a
  }
}`, "t.drr:4:", "Paddle's matcher requires every reader of an inner value"},
		{"native without C++", `
native constraint is_ok(%v: value)

rule r {
  match {
    %y = pd_op.relu(%x)
  }
  where {
    is_ok(%x)
  }
  rewrite {
    replace %y with %x
  }
}`, "t.drr:9:", "the native constraint is_ok has no C++ definition"},
		{"full_int_array created", `
rule r {
  match {
    %y = pd_op.relu(%x)
  }
  rewrite {
    %s = pd_op.full_int_array() {value: [1, 2], dtype: int64}
    replace %y with pd_op.add(%x, %s)
  }
}`, "t.drr:7:", "Paddle's DRR cannot create pd_op.full_int_array's attribute value (i64[])"},
		{"inner value read twice", `
rule r {
  match {
    %t = pd_op.relu(%x)
    %y = pd_op.multiply(%t, %t)
  }
  rewrite {
    replace %y with pd_op.square(%t)
  }
}`, "t.drr:5:", "reads the inner value %t twice"},
		{"rest attributes", `
rule r {
  match {
    %y = pd_op.transpose(%x) {$attrs...}
  }
  rewrite {
    replace %y with pd_op.transpose(%x) {$attrs...}
  }
}`, "t.drr:4:", "binds the attributes an op pattern does not list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, res, diags := generateSource(t, tt.src, Config{})
			assert.Nil(t, code)
			require.True(t, diags.HasErrors())
			assert.Equal(t, 0, res.Exported)
			text := diags.Error()
			assert.Contains(t, text, tt.pos)
			assert.Contains(t, text, "rule r cannot be exported to Paddle")
			assert.Contains(t, text, tt.want)
		})
	}
}

// TestPartial: with Partial the rules Paddle can express are written and the others are warnings.
func TestPartial(t *testing.T) {
	src := `
rule good {
  match {
    %y = pd_op.relu(pd_op.relu(%x))
  }
  rewrite {
    replace %y with pd_op.relu(%x)
  }
}

rule bad {
  match {
    %y = pd_op.relu(%x: tensor<?xf32>)
  }
  rewrite {
    replace %y with %x
  }
}`
	_, _, diags := generateSource(t, src, Config{})
	require.True(t, diags.HasErrors())
	code, res, diags := generateSource(t, src, Config{Partial: true})
	require.NotNil(t, code)
	assert.False(t, diags.HasErrors())
	assert.Equal(t, Result{Exported: 1, Total: 2, Classes: []string{"GoodPattern"}}, res)
	assert.Contains(t, diags.Error(), "rule bad cannot be exported")
	assert.Contains(t, string(code), "class GoodPattern")
	assert.NotContains(t, string(code), "BadPattern")
	assert.Contains(t, string(code), "REGISTER_IR_PASS(t_pass, TPass);")
}

// TestNativeCPP: -native-cpp supplies the C++ of a native constraint, which the generated lambda calls; the file
// passes the g++ check.
func TestNativeCPP(t *testing.T) {
	src := `
native constraint is_channel_multiple(%v: value, $n: i64)

rule r {
  match {
    %y = pd_op.relu(%x)
  }
  where {
    is_channel_multiple(%x, 8)
  }
  rewrite {
    replace %y with %x
  }
}`
	native := `bool is_channel_multiple(const pir::Value &v, int64_t n) {
  const std::vector<int64_t> shape = pir::GetShapeFromValue(v);
  return shape.size() > 1 && shape[1] % n == 0;
}`
	code, _, diags := generateSource(t, src, Config{NativeCPP: native})
	require.False(t, diags.HasErrors(), "%v", diags)
	assert.Contains(t, string(code), native)
	assert.Contains(t, string(code), `return is_channel_multiple(match_ctx.Tensor("x"), 8);`)
	include, gxx := headers(t)
	out, err := syntaxCheck(t, gxx, include, code)
	require.NoError(t, err, "%s\n%s", out, code)
	// A native defined in no file is still refused.
	_, _, diags = generateSource(t, src, Config{NativeCPP: "bool other(const pir::Value &v) { return !v; }"})
	require.True(t, diags.HasErrors())
	assert.True(t, strings.Contains(diags.Error(), "is_channel_multiple has no C++ definition"))
}
