// Package pdiparams reads and writes Paddle's combined parameter files (inference.pdiparams), the weights that go
// with a PIR JSON model (seed 004 §4.2: the C++ side stores parameters as one binary stream).
//
// The file is the parameters' tensors one after the other, in the order of their names sorted as strings (the
// order Paddle's save_combine writes them and its predictor loads them). Each tensor is
//
//	uint32   version (0)
//	uint64   LoD level count, then per level a uint64 byte size and that many bytes of offsets
//	uint32   version (0)
//	int32    size of the TensorDesc
//	bytes    TensorDesc, protobuf: field 1 data type (Paddle's VarType.Type), field 2 dims (int64, repeated)
//	bytes    the elements, little-endian
//
// all integers little-endian. Read fills ir.Variable.Data of a program's parameters from such a file, checking
// every tensor's data type and shape against the parameter's type; Write writes a program's parameters back, so
// that a model whose weights a pass folded (package rules' fold_constants) can be saved with its new weights.
package pdiparams

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirfile"
)

// varTypes maps element types to Paddle's VarType.Type numbers (framework.proto).
var varTypes = map[ir.DType]uint64{
	ir.DTypeBool: 0, ir.DTypeInt16: 1, ir.DTypeInt32: 2, ir.DTypeInt64: 3, ir.DTypeFloat16: 4, ir.DTypeFloat32: 5,
	ir.DTypeFloat64: 6, ir.DTypeUint8: 20, ir.DTypeInt8: 21, ir.DTypeBFloat16: 22, ir.DTypeComplex64: 23,
	ir.DTypeComplex128: 24, ir.DTypeFloat8E4M3FN: 32, ir.DTypeFloat8E5M2: 33,
}

// elemSize is the size in bytes of one element of each type the format carries.
var elemSize = map[ir.DType]int{
	ir.DTypeBool: 1, ir.DTypeInt16: 2, ir.DTypeInt32: 4, ir.DTypeInt64: 8, ir.DTypeFloat16: 2, ir.DTypeFloat32: 4,
	ir.DTypeFloat64: 8, ir.DTypeUint8: 1, ir.DTypeInt8: 1, ir.DTypeBFloat16: 2, ir.DTypeComplex64: 8,
	ir.DTypeComplex128: 16, ir.DTypeFloat8E4M3FN: 1, ir.DTypeFloat8E5M2: 1,
}

func dtypeOf(vt uint64) (ir.DType, bool) {
	for d, n := range varTypes {
		if n == vt {
			return d, true
		}
	}
	return ir.DTypeUndefined, false
}

// maxTensorBytes bounds what a malformed header can make Read allocate.
const maxTensorBytes = 1 << 34

// layout returns the element type, shape and byte size a parameter's data has.
func layout(v *ir.Variable) (ir.DType, []int64, int64, error) {
	t := ir.TensorOf(v.Type)
	if t == nil {
		return 0, nil, 0, fmt.Errorf("parameter %s has type %s, not a tensor", v.Name, v.Type)
	}
	size, ok := elemSize[t.DType()]
	if !ok {
		return 0, nil, 0, fmt.Errorf("parameter %s: Paddle's parameter files cannot hold %s elements", v.Name, t.DType())
	}
	n := int64(size)
	dims := make([]int64, t.Rank())
	for i, d := range t.Dims {
		if d < 0 {
			return 0, nil, 0, fmt.Errorf("parameter %s has a dynamic dimension (%s)", v.Name, v.Type)
		}
		dims[i] = int64(d)
		n *= int64(d)
	}
	return t.DType(), dims, n, nil
}

// Error is a malformed or mismatched file: the parameter and the byte offset of the tensor it concerns.
type Error struct {
	File   string
	Offset int64
	Param  string
	Err    error
}

func (e *Error) Error() string {
	where := e.File
	if where == "" {
		where = "pdiparams"
	}
	if e.Param != "" {
		return fmt.Sprintf("%s: offset %d: parameter %s: %v", where, e.Offset, e.Param, e.Err)
	}
	return fmt.Sprintf("%s: offset %d: %v", where, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// countingReader counts the bytes read, for error offsets.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Read fills the data of every parameter of p (p.ParamNames order) from r and checks that nothing follows. On
// error no parameter's data is changed. file names r in errors.
func Read(r io.Reader, file string, p *ir.Program) error {
	cr := &countingReader{r: bufio.NewReaderSize(r, 1<<20)}
	data := map[string][]byte{}
	for _, name := range p.ParamNames() {
		v := p.Params[name]
		start := cr.n
		fail := func(err error) error {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				err = fmt.Errorf("the file ends inside this tensor (%w); it has fewer parameters than the program (%d)", err, len(p.Params))
			}
			return &Error{File: file, Offset: start, Param: name, Err: err}
		}
		dt, dims, size, err := layout(v)
		if err != nil {
			return &Error{File: file, Offset: start, Param: name, Err: err}
		}
		raw, err := readTensor(cr, dt, dims, size)
		if err != nil {
			return fail(err)
		}
		data[name] = raw
	}
	var b [1]byte
	if n, _ := io.ReadFull(cr, b[:]); n != 0 {
		return &Error{File: file, Offset: cr.n - 1, Err: fmt.Errorf("more data after the %d parameters of the program", len(p.Params))}
	}
	for name, raw := range data {
		p.Params[name].Data = raw
	}
	return nil
}

func readTensor(r io.Reader, dt ir.DType, dims []int64, size int64) ([]byte, error) {
	var u32 uint32
	var u64 uint64
	if err := binary.Read(r, binary.LittleEndian, &u32); err != nil {
		return nil, err
	}
	if u32 != 0 {
		return nil, fmt.Errorf("tensor version %d (only 0 exists)", u32)
	}
	if err := binary.Read(r, binary.LittleEndian, &u64); err != nil {
		return nil, err
	}
	if u64 > 16 {
		return nil, fmt.Errorf("%d LoD levels: not a parameter file, or a corrupt one", u64)
	}
	for range u64 {
		var n uint64
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return nil, err
		}
		if n > maxTensorBytes {
			return nil, fmt.Errorf("a LoD level of %d bytes", n)
		}
		if _, err := io.CopyN(io.Discard, r, int64(n)); err != nil {
			return nil, err
		}
	}
	if err := binary.Read(r, binary.LittleEndian, &u32); err != nil {
		return nil, err
	}
	if u32 != 0 {
		return nil, fmt.Errorf("tensor data version %d (only 0 exists)", u32)
	}
	var descSize int32
	if err := binary.Read(r, binary.LittleEndian, &descSize); err != nil {
		return nil, err
	}
	if descSize < 0 || descSize > 1<<16 {
		return nil, fmt.Errorf("a tensor description of %d bytes", descSize)
	}
	desc := make([]byte, descSize)
	if _, err := io.ReadFull(r, desc); err != nil {
		return nil, err
	}
	vt, fileDims, err := parseDesc(desc)
	if err != nil {
		return nil, err
	}
	fdt, ok := dtypeOf(vt)
	if !ok {
		return nil, fmt.Errorf("unknown data type %d", vt)
	}
	if fdt != dt || !equalDims(fileDims, dims) {
		return nil, fmt.Errorf("the file has a %v %s tensor, the program a %v %s one (are the file and the model from the same export?)",
			fileDims, fdt, dims, dt)
	}
	raw := make([]byte, size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, err
	}
	return raw, nil
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parseDesc decodes a TensorDesc: field 1 (varint) the data type, field 2 the dims, unpacked varints or packed.
func parseDesc(b []byte) (uint64, []int64, error) {
	var vt uint64
	haveType := false
	var dims []int64
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, nil, errors.New("malformed tensor description")
		}
		b = b[n:]
		field, wire := key>>3, key&7
		switch {
		case field == 1 && wire == 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return 0, nil, errors.New("malformed tensor description")
			}
			vt, haveType, b = v, true, b[n:]
		case field == 2 && wire == 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return 0, nil, errors.New("malformed tensor description")
			}
			dims, b = append(dims, int64(v)), b[n:]
		case field == 2 && wire == 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return 0, nil, errors.New("malformed tensor description")
			}
			packed := b[n : n+int(l)]
			b = b[n+int(l):]
			for len(packed) > 0 {
				v, m := binary.Uvarint(packed)
				if m <= 0 {
					return 0, nil, errors.New("malformed tensor description")
				}
				dims, packed = append(dims, int64(v)), packed[m:]
			}
		default:
			return 0, nil, fmt.Errorf("unexpected field %d (wire type %d) in a tensor description", field, wire)
		}
	}
	if !haveType {
		return 0, nil, errors.New("a tensor description without a data type")
	}
	return vt, dims, nil
}

// ReadFile reads the parameter file at path into p's parameters.
func ReadFile(path string, p *ir.Program) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return Read(f, path, p)
}

// Write writes the data of every parameter of p, in p.ParamNames order. Every parameter must have its data.
func Write(w io.Writer, p *ir.Program) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for _, name := range p.ParamNames() {
		v := p.Params[name]
		dt, dims, size, err := layout(v)
		if err != nil {
			return err
		}
		if v.Data == nil {
			return fmt.Errorf("parameter %s has no data to write", name)
		}
		if int64(len(v.Data)) != size {
			return fmt.Errorf("parameter %s has %d bytes of data; its type %s needs %d", name, len(v.Data), v.Type, size)
		}
		desc := binary.AppendUvarint(nil, 1<<3) // field 1, varint
		desc = binary.AppendUvarint(desc, varTypes[dt])
		for _, d := range dims {
			desc = binary.AppendUvarint(desc, 2<<3) // field 2, varint
			desc = binary.AppendUvarint(desc, uint64(d))
		}
		var hdr []byte
		hdr = binary.LittleEndian.AppendUint32(hdr, 0) // version
		hdr = binary.LittleEndian.AppendUint64(hdr, 0) // no LoD
		hdr = binary.LittleEndian.AppendUint32(hdr, 0) // tensor version
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(desc)))
		hdr = append(hdr, desc...)
		if _, err := bw.Write(hdr); err != nil {
			return err
		}
		if _, err := bw.Write(v.Data); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteFile writes p's parameters to path atomically: on error the file is left as it was.
func WriteFile(path string, p *ir.Program) error {
	return pirfile.WriteFileFunc(path, func(w io.Writer) error { return Write(w, p) })
}
