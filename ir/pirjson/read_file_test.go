package pirjson

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/mapfile"
	"github.com/pirdrr/drr/ir"
)

// writeJSON writes p as PIR JSON into a file of the test's and returns its path and bytes.
func writeJSON(t *testing.T, p *ir.Program) (string, []byte) {
	t.Helper()
	data, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "model.json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path, data
}

// TestReadFileIsRead reads files from the file (mapped and handed back as read, for the larger: 14 MB, releases
// after the first 9) and from memory: the same programs, and the same error at the same place.
func TestReadFileIsRead(t *testing.T) {
	for _, n := range []int{10, 70_000} {
		path, data := writeJSON(t, chain(t, n, false))
		want, err := Read(ir.NewContext(), path, data, ReadOptions{})
		require.NoError(t, err)
		got, err := ReadFile(ir.NewContext(), path, ReadOptions{})
		require.NoError(t, err)
		requireSameJSON(t, want, got)
		assert.Equal(t, path, got.File)

		// A late error: the last op's operand names a value that does not exist.
		bad := append([]byte(nil), data...)
		i := len(bad) - 200 + bytes.Index(bad[len(bad)-200:], []byte(`"%":`))
		require.Greater(t, i, len(bad)-200)
		bad = append(bad[:i+4:i+4], append([]byte("99999999"), bad[i+4+digits(bad[i+4:]):]...)...)
		require.NoError(t, os.WriteFile(path, bad, 0o644))
		_, werr := Read(ir.NewContext(), path, bad, ReadOptions{})
		require.Error(t, werr)
		_, gerr := ReadFile(ir.NewContext(), path, ReadOptions{})
		assert.Equal(t, werr.Error(), gerr.Error())
	}
	_, err := ReadFile(ir.NewContext(), filepath.Join(t.TempDir(), "missing.json"), ReadOptions{})
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// TestReadLarge reads a model as a large one (its op records prefaulted and its parameter table built on other
// goroutines): the same program and parameters as read as a small one.
func TestReadLarge(t *testing.T) {
	c := ir.NewContext()
	f32 := c.Tensor(ir.DenseTensor, []int64{2}, c.Scalar(ir.DTypeFloat32))
	p := ir.NewProgram(c)
	b := ir.NewBuilder(c)
	b.SetInsertionPointToEnd(p.Body())
	for i := range 20_000 { // 2,000 names, each read by ten ops, some with another type
		typ := f32
		if i%7 == 0 {
			typ = c.Tensor(ir.DenseTensor, []int64{3}, c.Scalar(ir.DTypeFloat32))
		}
		b.Create(ir.OpSpec{Name: ir.ParameterOpName, Results: []ir.Type{typ},
			Attrs: []ir.NamedAttr{{Name: "parameter_name", Value: c.Str(fmt.Sprintf("w%d", i%2000))}}})
	}
	data, err := Marshal(p, WriteOptions{})
	require.NoError(t, err)
	small, err := read(ir.NewContext(), "m.json", data, ReadOptions{}, readHooks{})
	require.NoError(t, err)
	large, err := read(ir.NewContext(), "m.json", data, ReadOptions{}, readHooks{largeFrom: 1})
	require.NoError(t, err)
	requireSameJSON(t, small, large)
	require.Len(t, large.Params, 2000)
	for name, v := range small.Params {
		require.Contains(t, large.Params, name)
		assert.Equal(t, v.Type.String(), large.Params[name].Type.String(), name)
	}
}

// TestReadFileShrunk: a file truncated after it was mapped is an error, not a crash.
func TestReadFileShrunk(t *testing.T) {
	path, _ := writeJSON(t, chain(t, 2_000, false))
	file, err := mapfile.Open(path)
	require.NoError(t, err)
	defer file.Close()
	if !file.Mapped() {
		t.Skip("files are not mapped on this system")
	}
	require.NoError(t, os.Truncate(path, 0))
	_, err = readOpened(ir.NewContext(), path, file, ReadOptions{})
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, path, e.Pos.Filename)
	assert.Equal(t, 1, e.Pos.Line)
	assert.Equal(t, e.Pos.Offset+1, e.Pos.Column, "one line: the column is the offset plus 1")
	assert.Contains(t, err.Error(), path+":1:")
	assert.Contains(t, e.Msg, "the file changed while it was read")
}

// requireSameJSON checks that two programs write the same PIR JSON.
func requireSameJSON(t *testing.T, want, got *ir.Program) {
	t.Helper()
	wantJSON, err := Marshal(want, WriteOptions{})
	require.NoError(t, err)
	gotJSON, err := Marshal(got, WriteOptions{})
	require.NoError(t, err)
	require.Equal(t, string(wantJSON), string(gotJSON))
}

// digits returns the length of the run of decimal digits at the start of b.
func digits(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return n
}
