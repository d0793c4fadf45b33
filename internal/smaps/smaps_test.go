package smaps

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestField: the mapping holding a heap variable has flags and a resident size of at least the page it is on,
// and an address no mapping holds is an error.
func TestField(t *testing.T) {
	buf := make([]byte, 1<<20)
	buf[0] = 1
	addr := uintptr(unsafe.Pointer(&buf[0]))
	flags, err := Field(addr, "VmFlags")
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	require.NoError(t, err)
	assert.Contains(t, flags, "rd")
	assert.Contains(t, flags, "wr")
	rss, err := Bytes(addr, "Rss")
	require.NoError(t, err)
	assert.GreaterOrEqual(t, rss, int64(4096))
	_, err = Bytes(addr, "VmFlags")
	assert.Error(t, err, "not a size")
	_, err = Field(1, "Rss")
	assert.Error(t, err)
}
