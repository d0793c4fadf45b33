package playground

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pirdrr/drr/internal/sample"
	"github.com/pirdrr/drr/ir/pirtext"
)

// tinyGraph is a GraphNet graph folder of two ops (our own).
var tinyGraph = map[string]string{
	"model.py": `import paddle


class GraphModule(paddle.nn.Layer):
    def __init__(self):
        super().__init__()

    def forward(self, parameter_0, data_0):
        # pd_op.matmul: (2x4xf32) <- (2x3xf32, 3x4xf32)
        matmul_0 = paddle._C_ops.matmul(data_0, parameter_0, False, False)
        del data_0, parameter_0

        # pd_op.relu: (2x4xf32) <- (2x4xf32)
        relu_0 = paddle._C_ops.relu(matmul_0)
        del matmul_0

        return relu_0
`,
	"weight_meta.py": `class Program_weight_tensor_parameter_0:
    name = "parameter_0"
    shape = [3, 4]
    dtype = "float32"
    data = None
`,
	"input_meta.py": `class Program_weight_tensor_data_0:
    name = "data_0"
    shape = [2, 3]
    dtype = "float32"
    data = None
`,
}

// zipOf makes a zip of the given entries (a name ending in "@" is written as a symbolic link).
func zipOf(t testing.TB, entries map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range entries {
		h := &zip.FileHeader{Name: strings.TrimSuffix(name, "@"), Method: zip.Deflate}
		if strings.HasSuffix(name, "@") {
			h.SetMode(fs.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		require.NoError(t, err)
		_, err = io.WriteString(w, body)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// uploadFile posts a file as the page does and returns the status and the body.
func (ts *testServer) uploadFile(name string, data []byte) (int, []byte) {
	ts.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", name)
	require.NoError(ts.t, err)
	_, err = w.Write(data)
	require.NoError(ts.t, err)
	require.NoError(ts.t, mw.Close())
	resp, err := http.Post(ts.ts.URL+"/api/upload", mw.FormDataContentType(), &body)
	require.NoError(ts.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(ts.t, err)
	return resp.StatusCode, out
}

type uploadAnswer struct {
	Programs []uploaded `json:"programs"`
	Error    string     `json:"error"`
}

func TestUpload(t *testing.T) {
	ts := newTestServer(t, nil, Limits{MaxUpload: 64 << 10, MaxUnpacked: 32 << 10, MaxZipFiles: 20})
	p, err := sample.Load(testCtx())
	require.NoError(t, err)
	text := pirtext.Print(p, pirtext.WriteOptions{})

	// A PIR text program: it runs.
	code, body := ts.uploadFile("tiny.pir", text)
	require.Equal(t, http.StatusOK, code, "%s", body)
	var up uploadAnswer
	require.NoError(t, json.Unmarshal(body, &up))
	require.Len(t, up.Programs, 1)
	assert.Equal(t, 51, up.Programs[0].Ops)
	var res runResult
	ts.call("POST", "/api/run", runRequest{Rules: resnetRules, Program: programRef{Upload: up.Programs[0].ID}}, http.StatusOK, &res)
	assert.Equal(t, 1, res.Rules[0].Matches)

	// A zip of two GraphNet folders.
	entries := map[string]string{}
	for name, body := range tinyGraph {
		entries["model/subgraph_10/"+name] = body
		entries["model/subgraph_2/"+name] = body
	}
	code, body = ts.uploadFile("graphs.zip", zipOf(t, entries))
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.NoError(t, json.Unmarshal(body, &up))
	require.Len(t, up.Programs, 2)
	assert.Contains(t, up.Programs[0].Name, "subgraph_2", "natural order")
	assert.Contains(t, up.Programs[1].Name, "subgraph_10")
	assert.Equal(t, "graphs/model/subgraph_2", up.Programs[0].Name)

	// A zip whose folder has the archive's name: the name is not doubled (SegFormer-B5/SegFormer-B5/subgraph_0).
	entries = map[string]string{}
	for name, body := range tinyGraph {
		entries["SegFormer-B5/subgraph_0/"+name] = body
	}
	code, body = ts.uploadFile("SegFormer-B5.zip", zipOf(t, entries))
	require.Equal(t, http.StatusOK, code, "%s", body)
	require.NoError(t, json.Unmarshal(body, &up))
	require.Len(t, up.Programs, 1)
	assert.Equal(t, "SegFormer-B5/subgraph_0", up.Programs[0].Name)

	tests := []struct {
		name   string
		file   string
		data   []byte
		status int
		want   string
	}{
		{"too large", "big.pir", bytes.Repeat([]byte("x"), 70<<10), http.StatusRequestEntityTooLarge, "upload limit"},
		{"junk", "junk.pir", []byte("{ (%0) = junk"), http.StatusBadRequest, "junk.pir:1:"},
		{"not a zip", "x.zip", []byte("PK\x03\x04 junk"), http.StatusBadRequest, "not a zip"},
		{"traversal", "evil.zip", zipOf(t, map[string]string{"../model.py": tinyGraph["model.py"]}), http.StatusBadRequest, "not a plain relative path"},
		{"absolute", "evil.zip", zipOf(t, map[string]string{"/tmp/model.py": tinyGraph["model.py"]}), http.StatusBadRequest, "not a plain relative path"},
		{"symlink", "evil.zip", zipOf(t, map[string]string{"g/model.py@": "/etc/passwd"}), http.StatusBadRequest, "symbolic link"},
		{"bomb", "bomb.zip", zipOf(t, map[string]string{"g/model.py": strings.Repeat(" ", 1<<20)}), http.StatusRequestEntityTooLarge, "unpacks to more than the 32 KiB"},
		{"many files", "many.zip", zipOf(t, manyEntries(30)), http.StatusRequestEntityTooLarge, "30 entries, more than the 20"},
		{"no graph", "none.zip", zipOf(t, map[string]string{"readme.txt": "hi"}), http.StatusBadRequest, "holds no GraphNet graph"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := ts.uploadFile(tt.file, tt.data)
			assert.Equal(t, tt.status, code, "%s", body)
			var a uploadAnswer
			require.NoError(t, json.Unmarshal(body, &a), "%s", body)
			assert.Contains(t, a.Error, tt.want)
		})
	}

	resp, err := http.Post(ts.ts.URL+"/api/upload", "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
}

func manyEntries(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m["f"+strings.Repeat("x", i)+".txt"] = "x"
	}
	return m
}

// FuzzUnzip reads arbitrary archives as uploads: an error or programs, never a panic, and never more unpacked than
// the limit.
func FuzzUnzip(f *testing.F) {
	entries := map[string]string{}
	for name, body := range tinyGraph {
		entries["g/"+name] = body
	}
	f.Add(zipOf(f, entries))
	f.Add(zipOf(f, map[string]string{"../model.py": "x"}))
	f.Add([]byte("PK\x03\x04"))
	s, err := New(Options{Context: testCtx(), Registry: testReg(), Limits: Limits{MaxUnpacked: 64 << 10, MaxZipFiles: 50}})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte) {
		progs, err := s.unzip("fuzz.zip", data)
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		assert.NotEmpty(t, progs)
	})
}
