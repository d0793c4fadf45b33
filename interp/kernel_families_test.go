package interp

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryOpHasOneKernel: no op is registered by two kernel families (a second registration would silently
// replace the first, depending on the order of families).
func TestEveryOpHasOneKernel(t *testing.T) {
	owner := map[string]string{}
	for _, register := range families[float64]() {
		name := runtime.FuncForPC(reflect.ValueOf(register).Pointer()).Name()
		name = name[strings.LastIndex(name, ".")+1:]
		r := registry[float64]{}
		register(r)
		for op := range r {
			if prev, ok := owner[op]; ok {
				assert.Fail(t, "an op has two kernels", "%s is registered by %s and by %s", op, prev, name)
			}
			owner[op] = name
		}
	}
	assert.Len(t, owner, len(registry64))
}
