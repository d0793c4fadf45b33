package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"", "abc", 3},
		{"relu", "rleu", 1}, // a transposition
		{"conv_bn", "conv_bn_relu", 5},
		{"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Distance(tt.a, tt.b), "%q %q", tt.a, tt.b)
		assert.Equal(t, tt.want, Distance(tt.b, tt.a), "%q %q", tt.b, tt.a)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"conv_bn_relu", "inplace", "value_semantics", "inference", "dce"}
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"inplce", "inplace", true},
		{"INPLACE", "inplace", true},
		{"conv_bn", "conv_bn_relu", true}, // the only name it starts
		{"value", "value_semantics", true},
		{"in", "", false}, // inplace and inference both start with it
		{"fold_constants", "", false},
		{"dec", "dce", true},
	}
	for _, tt := range tests {
		got, ok := Closest(tt.name, names)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

func TestUnknown(t *testing.T) {
	assert.Equal(t, `unknown pass "inplce" (did you mean inplace?)`, Unknown("pass", "inplce", []string{"dce", "inplace"}))
	assert.Equal(t, `unknown label "zzz" (known: a, b)`, Unknown("label", "zzz", []string{"b", "a"}))
	assert.Equal(t, `unknown label "zzz" (there are none)`, Unknown("label", "zzz", nil))
	many := []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3", "b4", "b5"}
	assert.Equal(t, `unknown rule "zzzzzz" (known: a1, a2, a3, a4, a5, a6, a7, a8, a9, b1, b2, b3, … (2 more))`,
		Unknown("rule", "zzzzzz", many))
}
