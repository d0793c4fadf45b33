package pirtext

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/pirdrr/drr/ir"
)

// parseBoth reads src with the fast path and the caches of types and attribute maps, and without them, and requires
// the same outcome: the same error, or programs that are equal (attribute order and op positions included) with
// the same warnings. It returns the number of ops the fast path read, or -1 if the input does not read.
func parseBoth(t testing.TB, ctx *ir.Context, name string, src []byte) int {
	t.Helper()
	fast := &parseHooks{}
	p, pw, perr := parse(ctx, name, src, ReadOptions{}, fast)
	q, qw, qerr := parse(ctx, name, src, ReadOptions{}, &parseHooks{slow: true})
	if perr != nil || qerr != nil {
		require.Equal(t, fmt.Sprint(qerr), fmt.Sprint(perr), "the fast path's error differs (input:\n%s)", src)
		return -1
	}
	require.Equal(t, qw, pw, "the fast path's warnings differ (input:\n%s)", src)
	require.NoError(t, ir.Equal(q, p, ir.EqualOptions{AttrOrder: true}), "the fast path's program differs (input:\n%s)", src)
	var locs []ir.Loc
	for op := range q.Walk() {
		locs = append(locs, op.Loc)
	}
	i := 0
	for op := range p.Walk() {
		require.Equal(t, locs[i], op.Loc, "position of op %d", i)
		i++
	}
	return fast.fastOps
}

// TestFastPathAgrees: the fast path reads exactly what the general reader reads, on printed programs (generated,
// the golden files' inputs, the corpus) and on lines that leave the fast path at every step; and it does read the
// ops of printed programs.
func TestFastPathAgrees(t *testing.T) {
	t.Run("generated", func(t *testing.T) {
		for seed := uint64(1); seed <= 100; seed++ {
			ctx := genContext(t, seed%2 == 0)
			p := newProgGen(ctx, seed).program()
			for _, untagged := range []bool{false, true} {
				text := Print(p, WriteOptions{Untagged: untagged})
				n := parseBoth(t, ctx, "gen.pir", text)
				assert.Positive(t, n, "seed %d: the fast path read no op", seed)
			}
		}
	})
	t.Run("golden", func(t *testing.T) {
		for _, dir := range []string{"errors", "print"} {
			paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
			require.NoError(t, err)
			for _, path := range paths {
				a, err := txtar.ParseFile(path)
				require.NoError(t, err)
				if in, ok := section(a, "input.pir"); ok {
					parseBoth(t, goldenContext(t, a), path, []byte(in))
				}
			}
		}
	})
	t.Run("corpus", func(t *testing.T) {
		for _, c := range corpusFiles(t) {
			for _, mode := range ctxModes(t) {
				if n := parseBoth(t, mode.new(t), c.name, c.src); n >= 0 {
					assert.Positive(t, n, "%s: the fast path read no op", c.name)
				}
			}
		}
	})
	t.Run("maps that differ in one string", func(t *testing.T) {
		maps := []string{
			`{a:"x",b:[1,2],c:"y",d:1}`, `{a:"xx",b:[1,2],c:"y",d:1}`, `{a:"",b:[1,2],c:"y",d:1}`,
			`{a:"x",b:[1,2],c:"",d:1}`, `{a:"x",b:[1,2],c:"yyyy",d:1}`, `{a:"x",b:[1,3],c:"y",d:1}`,
			`{a:"x",b:[1,2],c:"y",d:2}`, `{a:"x\"",b:[1,2],c:"y",d:1}`, `{a:"x",b:[1,2],c:"y\n",d:1}`,
			`{a:"x",b:[1,2],c:"y",d:1,e:"z"}`, `{a:"x",b:[1,2],c:"y"}`, `{a:"x",b:[1,2],c:"y",d:1}`,
			`{a:"x",b:[1,2],c:"y",d:1}`, `{a:"a}b",b:[1,2],c:"y",d:1}`, `{a:"x",b:["s"],c:"y",d:1}`,
			`{a:"x",b:["t"],c:"y",d:1}`, `{a:"x",b:[1,2],c:y,d:1}`, `{a:"x",b:[1,2],c:"y",d:1`,
			`{a:"x",a:"x"}`, `{a:"x",b:[1,2],c:"y` + "\n" + `",d:1}`, `{a:(TensorName)"x",c:"y"}`,
			`{a:(TensorName)"q",c:"y"}`, `{a:"é",b:[1,2],c:"y",d:1}`, `{a:"x\",b:[1,2],c:"y",d:1}`,
		}
		for _, op := range []string{"my.op", "pd_op.data", "builtin.parameter", "pd_op.feed"} {
			var b strings.Builder
			b.WriteString("{\n")
			for i, m := range maps {
				fmt.Fprintf(&b, "    (%%%d) = %q () %s : () -> f32\n", i, op, m)
			}
			b.WriteString("}\n")
			for _, mode := range ctxModes(t) {
				parseBoth(t, mode.new(t), "maps.pir", []byte(b.String()))
			}
			// Each map after the first, alone: the errors too.
			for _, m := range maps[1:] {
				src := fmt.Sprintf("{\n    (%%0) = %q () %s : () -> f32\n    (%%1) = %q () %s : () -> f32\n}\n", op, maps[0], op, m)
				parseBoth(t, ir.NewContext(), "maps.pir", []byte(src))
			}
		}
	})
	t.Run("signature as the last of the kind", func(t *testing.T) {
		// A line whose attribute map differs from the last line of its kind but whose signature and line end are
		// that line's takes its types: unless the operands' types are not the signature's, or anything else differs.
		head := "{\n" +
			`    (%0) = "pd_op.data" () {name:"x"} : () -> builtin.tensor<2xf32>` + "\n" +
			`    (%1) = "pd_op.data" () {name:"y"} : () -> builtin.tensor<3xf32>` + "\n" +
			`    (%2) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)2} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n"
		tests := []struct {
			line string
			fast int // the ops the fast path reads (-1: the input does not read)
		}{
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 4},
			{`(%3) = "pd_op.scale" (%2) {bias:(Float)0,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\r\n}\n", 4},
			{`(%3) = "pd_op.scale" (%1) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 3},
			{`(%3) = "pd_op.scale" (<<NULL VALUE>>) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 4},
			{`(%3, %4) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 3},
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`, 3},
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n    {\n    }\n}\n", 3},
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:"3"} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 4},
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:[3]} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>` + "\n}\n", 4},
			{`(%3) = "pd_op.scale" (%0) {bias:(Float)1,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32> ` + "\n}\n", 3},
		}
		for _, tt := range tests {
			for _, mode := range ctxModes(t) {
				n := parseBoth(t, mode.new(t), "sig.pir", []byte(head+"    "+tt.line))
				if n >= 0 {
					assert.Equal(t, tt.fast, n, "%s", tt.line)
				}
			}
		}
	})
	t.Run("near misses", func(t *testing.T) {
		head := "{\n" +
			`    (%0) = "pd_op.data" () {name:"x"} : () -> builtin.tensor<2xf32>` + "\n" +
			`    (%1) = "builtin.parameter" () {parameter_name:"w"} : () -> builtin.tensor<2xf32>` + "\n"
		lines := []string{
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32> // c`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32> `,
			`(%2) = "pd_op.add" (%0,%1) {} : (builtin.tensor<2xf32>,builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<3xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>, f32) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>, f32`,
			`(%2, %3) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %9) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %x) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%02) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%1) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2, %2) = "pd_op.split" (%0) {} : (builtin.tensor<2xf32>) -> f32, f32`,
			`(%2) = "pd_op.add" [id:7] (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_\"op" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, <<NULL VALUE>>) {} : (builtin.tensor<2xf32>, <<NULL TYPE>>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, <<NULL VALUE>>) {} : (builtin.tensor<2xf32>, f32) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.scale" (%0) {bias:1e-05,scale:(Float)2,bias_after_scale:true} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.scale" (%0) {bias:1e+999} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],value:1} : () -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.full" () {dtype:float32,dtype:float32} : () -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>> `,
			`(%2) = "pd_op.if" (%0) {} : (builtin.tensor<2xf32>) -> f32` + "\n    {\n        () = \"cf.yield\" (%1) {} : (builtin.tensor<2xf32>) -> \n    }",
			`(%2) = "pd_op.if" (%0) {} -> f32 {` + "\n        () = \"cf.yield\" (%1) {} : (builtin.tensor<2xf32>) -> \n    } else {\n    }",
			`(%2) = "pd_op.if" (%0) {} : (builtin.tensor<2xf32>) -> f32` + "\n\n  // regions\n\t{\n        () = \"cf.yield\" (%1) {} : (builtin.tensor<2xf32>) -> \n    }",
			`(%2) = "pd_op.while"(cond=%0, inputs=%1) {` + "\n    ^%arg_0\n        () = \"cf.yield\" (%0, %arg_0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> \n    }",
			`() = "pd_op.fetch" (%0) {name:"out"} : (builtin.tensor<2xf32>) -> `,
			`() = "pd_op.fetch" (%0) {name:"out"} : (builtin.tensor<2xf32>) ->`,
			`(%2) = "pd_op.data" () {name:"x"} : () -> builtin.tensor<2xf32>` + "\r",
			`(%2) = "pd_op.data" () {name:"a\nb"} : () -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.data" () {name:"a\"b"} : () -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.data" () {name:"a}b"} : () -> builtin.tensor<2xf32>`,
			`(%2) = "builtin.parameter" () {parameter_name:"w2"} : () -> builtin.tensor<2xf32>`,
			`(%2) = "builtin.parameter" () {parameter_name:"w2",extra:1} : () -> builtin.tensor<2xf32>`,
			`(%2) = "builtin.parameter" () {parameter_name:"w2} : () -> builtin.tensor<2xf32>`,
			`(%2) = "builtin.parameter" () {parameter_name:"w2" : () -> builtin.tensor<2xf32>`,
			`(%2) = "builtin.parameter" () {parameter_name:w2} : () -> builtin.tensor<2xf32>`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> vec[f32,builtin.tensor<2xf32>]`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> f32x`,
			`(%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) ->`,
		}
		for _, line := range lines {
			for _, end := range []string{"\n}\n", "\r\n}\r\n", "\n    " + lines[0][:6] + "3" + lines[0][6:] + "\n}\n", "\n"} {
				src := head + "    " + line + end
				for _, mode := range ctxModes(t) {
					parseBoth(t, mode.new(t), "near.pir", []byte(src))
					// Without the braces: the program ends in the line.
					parseBoth(t, mode.new(t), "near.pir", []byte(strings.TrimPrefix(head, "{\n")+"    "+line))
				}
			}
		}
	})
}

// TestFastPathReadsPrintedPrograms: the fast path reads every op of the bench workload's shape (gen.py's lines,
// printed by this printer too), and ops with equal attribute maps share one attribute list.
func TestFastPathReadsPrintedPrograms(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("{\n")
	b.WriteString(`    (%0) = "pd_op.data" () {name:"x"} : () -> builtin.tensor<1x64x56x56xf32>` + "\n")
	for i := 1; i <= 100; i++ {
		format := []string{"NCHW", "NHWC"}[i/3%2]
		fmt.Fprintf(&b, `    (%%%d) = "builtin.parameter" () {parameter_name:"conv%d.w_0"} : () -> builtin.tensor<64x64x3x3xf32>`+"\n", 2*i-1, i)
		fmt.Fprintf(&b, `    (%%%d) = "pd_op.conv2d" (%%%d, %%%d) {data_format:%q,dilations:[1,1],groups:1,paddings:[1,1],strides:[1,1]} : (builtin.tensor<1x64x56x56xf32>, builtin.tensor<64x64x3x3xf32>) -> builtin.tensor<1x64x56x56xf32>`+"\n", 2*i, 2*i-2, 2*i-1, format)
	}
	fmt.Fprintf(&b, `    () = "pd_op.fetch" (%%200) {name:"out"} : (builtin.tensor<1x64x56x56xf32>) -> `+"\n}\n")
	ctx := ir.NewContext()
	n := parseBoth(t, ctx, "w.pir", b.Bytes())
	assert.Equal(t, 202, n)

	// The convolutions share two attribute lists; each parameter has its own.
	p, _, err := Parse(ctx, "w.pir", b.Bytes(), ReadOptions{})
	require.NoError(t, err)
	lists := map[string]map[*ir.NamedAttr]bool{}
	for op := range p.Walk() {
		if lists[op.Name()] == nil {
			lists[op.Name()] = map[*ir.NamedAttr]bool{}
		}
		lists[op.Name()][&op.Attrs()[0]] = true
	}
	assert.Len(t, lists["pd_op.conv2d"], 2)
	assert.Len(t, lists["builtin.parameter"], 100)
}

// plainNumRef is plainNum one byte at a time: the reference TestPlainNum compares it with.
func plainNumRef(src []byte, i int) (n, j int, ok bool) {
	n, d := digitsSlow(src, i+1)
	j = i + 1 + d
	if d == 0 || d > 1 && src[i+1] == '0' || j < len(src) && charClass[src[j]]&clValueName != 0 {
		return 0, i, false
	}
	return n, j, true
}

// TestPlainNum: value names that are plain numbers, read from one word or one byte at a time near the end of the
// source, and the names that are not (leading 0s, a name byte after the digits, more than 9 digits).
func TestPlainNum(t *testing.T) {
	tests := []struct {
		src   string
		n, j  int
		plain bool
	}{
		{"%", 0, 0, false}, {"%x", 0, 0, false}, {"%7", 7, 2, true}, {"%0)", 0, 2, true}, {"%42, %1) {}", 42, 3, true},
		{"%1234567)", 1234567, 8, true}, {"%12345678", 12345678, 9, true}, {"%12345678)", 12345678, 9, true},
		{"%123456789", 123456789, 10, true}, {"%1234567890123", 0, 0, false}, {"%9999999,,,,,,", 9999999, 8, true},
		{"%00000001", 0, 0, false}, {"%01)      ", 0, 0, false}, {"%5:", 5, 2, true}, {"%3/", 3, 2, true},
		{"%4\xfa\xff\xff\xff\xff\xff\xff", 4, 2, true}, {"%1\x00", 1, 2, true}, {"%123 4567", 123, 4, true},
		{"%12a, %1)   ", 0, 0, false}, {"%12_, %1)   ", 0, 0, false}, {"%12., %1)   ", 0, 0, false},
		{"%1234567a)  ", 0, 0, false}, {"%12345678a) ", 0, 0, false},
	}
	for _, tt := range tests {
		for _, pad := range []string{"", "(%1, "} {
			src := []byte(pad + tt.src)
			n, j, ok := plainNum(src, len(pad))
			assert.Equal(t, tt.plain, ok, "%q", src)
			if tt.plain {
				assert.Equal(t, tt.n, n, "%q", src)
				assert.Equal(t, len(pad)+tt.j, j, "%q", src)
			}
		}
	}
	// Every value up to 10^9 in steps in a line of the workload's shape, at every distance from the end, and
	// against the byte-at-a-time reference with every byte after the digits.
	for v := 0; v < 1_000_000_000; v += 99_991 {
		s := []byte(fmt.Sprintf("%%%d, %%1) {}", v))
		d := len(fmt.Sprint(v))
		for end := 1 + d; end <= len(s); end++ {
			n, j, ok := plainNum(s[:end], 0)
			require.True(t, ok, "%q", s[:end])
			require.Equal(t, v, n)
			require.Equal(t, 1+d, j)
		}
		for c := 0; c < 256; c++ {
			s := append([]byte(fmt.Sprintf("%%%d", v)), byte(c), ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ')
			n, j, ok := plainNum(s, 0)
			rn, rj, rok := plainNumRef(s, 0)
			require.Equal(t, rok, ok, "%q", s)
			require.Equal(t, rn, n, "%q", s)
			require.Equal(t, rj, j, "%q", s)
		}
	}
}

// TestCommonPrefix: commonPrefix is the length of the longest common prefix, wherever the first difference falls
// among the eight-byte words and the tail.
func TestCommonPrefix(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 0},
		{"abc", "abc", 3},
		{"abc", "abd", 2},
		{"xbc", "abc", 0},
		{"abcdefgh", "abcdefgh", 8},
		{"abcdefgh", "abcdefgx", 7},
		{"abcdefghij", "abcdefghik", 9},
		{"abcdefghijklmnopq", "abcdefghijklmnopq!", 17},
		{"{parameter_name:\"conv1.w_0\"}", "{parameter_name:\"conv12.w_0\"}", 22},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, commonPrefix([]byte(tt.a), []byte(tt.b)), "%q %q", tt.a, tt.b)
		assert.Equal(t, tt.want, commonPrefix([]byte(tt.b), []byte(tt.a)), "%q %q", tt.b, tt.a)
	}
}

// TestNameAt: an op kind's quoted name is found at an offset with its closing quote, compared as masked words when
// it is short and byte by byte when it is long or near the end of the source.
func TestNameAt(t *testing.T) {
	long := "pd_op.fused_conv2d_add_act" // 26 bytes: more than three words with its quote
	tests := []struct {
		name, src string
		at        bool
	}{
		{"pd_op.add", `pd_op.add" (%0, %1) {} : (f32, f32) -> f32`, true},
		{"pd_op.add", `pd_op.add_" (%0, %1) {} : (f32, f32) -> f32`, false},
		{"pd_op.add_", `pd_op.add" (%0, %1) {} : (f32, f32) -> f32`, false},
		{"pd_op.add", `pd_op.adD" (%0, %1) {} : (f32, f32) -> f32`, false},
		{"pd_op.add", `pd_op.add"`, true},
		{"pd_op.add", `pd_op.add`, false},
		{"builtin.parameter", `builtin.parameter" () {parameter_name:"w"}`, true},
		{"builtin.parameter", `builtin.parameteR" () {parameter_name:"w"}`, false},
		{"a234567890123456789012x", `a234567890123456789012x" ()`, true}, // 23 bytes and the quote: three words
		{"a234567890123456789012x", `a234567890123456789012y" ()`, false},
		{long, long + `" (%0, %1, %2, <<NULL VALUE>>)`, true},
		{long, long + `_" (%0, %1, %2, <<NULL VALUE>>)`, false},
		{long, long[:25] + `" (%0, %1, %2, <<NULL VALUE>>)`, false},
	}
	for _, tt := range tests {
		e := &opEntry{name: tt.name, quoted: tt.name}
		e.setNameWords()
		assert.Equal(t, len(tt.name)+1 <= 24, e.shortName, tt.name)
		for _, pad := range []string{"", `    (%3) = "`} {
			src := []byte(pad + tt.src)
			j, ok := e.nameAt(src, len(pad))
			assert.Equal(t, tt.at, ok, "%s at %q", tt.name, src)
			if ok {
				assert.Equal(t, len(pad)+len(tt.name)+1, j)
			}
		}
	}
}
