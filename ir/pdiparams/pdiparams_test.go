package pdiparams

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

const prog = `{
    (%0) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"b"} : () -> builtin.tensor<3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"steps"} : () -> builtin.tensor<1xi64>
    (%3) = "pd_op.fetch" (%0) {col:(Int32)0,name:"out"} : (builtin.tensor<2x3xf32>) -> builtin.tensor<2x3xf32>
}
`

func load(t *testing.T) *ir.Program {
	t.Helper()
	ctx, err := ir.NewDefaultContext()
	require.NoError(t, err)
	p, _, err := pirtext.Parse(ctx, "p.pir", []byte(prog), pirtext.ReadOptions{})
	require.NoError(t, err)
	return p
}

func f32s(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// tensor is one tensor of the format, written out field by field (independently of Write).
func tensor(vt byte, dims []byte, data []byte) []byte {
	desc := []byte{0x08, vt}
	for _, d := range dims {
		desc = append(desc, 0x10, d)
	}
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint64(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
	b = append(b, desc...)
	return append(b, data...)
}

// file is a parameter file for prog: b, steps, w (sorted names).
func file() []byte {
	var f []byte
	f = append(f, tensor(5, []byte{3}, f32s(0.5, -1, 2))...)
	f = append(f, tensor(3, []byte{1}, binary.LittleEndian.AppendUint64(nil, 7))...)
	return append(f, tensor(5, []byte{2, 3}, f32s(1, 2, 3, 4, 5, 6))...)
}

func TestReadWrite(t *testing.T) {
	p := load(t)
	require.NoError(t, Read(bytes.NewReader(file()), "p.pdiparams", p))
	assert.Equal(t, f32s(1, 2, 3, 4, 5, 6), p.Params["w"].Data)
	assert.Equal(t, f32s(0.5, -1, 2), p.Params["b"].Data)
	assert.Equal(t, binary.LittleEndian.AppendUint64(nil, 7), p.Params["steps"].Data)

	var out bytes.Buffer
	require.NoError(t, Write(&out, p))
	assert.Equal(t, file(), out.Bytes(), "written as Paddle writes it")

	dir := t.TempDir()
	path := filepath.Join(dir, "m.pdiparams")
	require.NoError(t, WriteFile(path, p))
	q := load(t)
	require.NoError(t, ReadFile(path, q))
	assert.Equal(t, p.Params["w"].Data, q.Params["w"].Data)
}

func TestReadPackedDims(t *testing.T) {
	// proto3-style packed dims (field 2, wire type 2) read the same.
	p := load(t)
	packed := func(vt byte, dims []byte, data []byte) []byte {
		desc := append([]byte{0x08, vt, 0x12, byte(len(dims))}, dims...)
		var b []byte
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint64(b, 0)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
		return append(append(b, desc...), data...)
	}
	f := append(packed(5, []byte{3}, f32s(0.5, -1, 2)), packed(3, []byte{1}, binary.LittleEndian.AppendUint64(nil, 7))...)
	f = append(f, packed(5, []byte{2, 3}, f32s(1, 2, 3, 4, 5, 6))...)
	require.NoError(t, Read(bytes.NewReader(f), "p.pdiparams", p))
	assert.Equal(t, f32s(1, 2, 3, 4, 5, 6), p.Params["w"].Data)
}

func TestReadErrors(t *testing.T) {
	good := file()
	wrongShape := append(append([]byte{}, good[:len(good)-len(tensor(5, []byte{2, 3}, f32s(1, 2, 3, 4, 5, 6)))]...),
		tensor(5, []byte{3, 2}, f32s(1, 2, 3, 4, 5, 6))...)
	wrongType := append(tensor(6, []byte{3}, make([]byte, 24)), good[len(tensor(5, []byte{3}, f32s(0.5, -1, 2))):]...)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "p.pdiparams: offset 0: parameter b: the file ends inside this tensor"},
		{"truncated", good[:len(good)-4], "parameter w: the file ends inside this tensor"},
		{"extra", append(append([]byte{}, good...), 0), "more data after the 3 parameters of the program"},
		{"shape", wrongShape, "parameter w: the file has a [3 2] f32 tensor, the program a [2 3] f32 one"},
		{"dtype", wrongType, "p.pdiparams: offset 0: parameter b: the file has a [3] f64 tensor, the program a [3] f32 one"},
		{"version", append([]byte{1, 0, 0, 0}, good[4:]...), "parameter b: tensor version 1"},
		{"lod", append(append([]byte{0, 0, 0, 0}, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0), good[12:]...), "LoD levels"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := load(t)
			err := Read(bytes.NewReader(tc.data), "p.pdiparams", p)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			for _, v := range p.Params {
				assert.Nil(t, v.Data, "no parameter changes on error")
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	p := load(t)
	err := Write(&bytes.Buffer{}, p)
	require.EqualError(t, err, "parameter b has no data to write")
	p.Params["b"].Data = []byte{1}
	err = Write(&bytes.Buffer{}, p)
	require.EqualError(t, err, "parameter b has 1 bytes of data; its type builtin.tensor<3xf32> needs 12")

	// A failed WriteFile leaves the file as it was.
	path := filepath.Join(t.TempDir(), "m.pdiparams")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.Error(t, WriteFile(path, p))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
}

func FuzzRead(f *testing.F) {
	f.Add(file())
	f.Add([]byte{})
	// One context for every execution: reading the op catalog into a new one was most of an execution's time.
	ctx, err := ir.NewDefaultContext()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _, err := pirtext.Parse(ctx, "p.pir", []byte(prog), pirtext.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := Read(bytes.NewReader(data), "f", p); err == nil {
			var out bytes.Buffer
			if err := Write(&out, p); err != nil {
				t.Fatalf("read but cannot write: %v", err)
			}
		}
	})
}
