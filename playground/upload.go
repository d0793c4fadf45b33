package playground

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/pirdrr/drr/ir/graphnet"
)

// Uploads: a program file (.pir, .json, …) or a zip of GraphNet graph folders (one graph, or a sample whose
// subgraph_N folders are graphs). Nothing is written to disk: the bytes are read into memory (at most MaxUpload),
// a zip is unpacked in memory with limits on its entries (MaxZipFiles) and on what they unpack to (MaxUnpacked,
// counted as they are read, not as the archive claims), and entry names must be plain relative paths (no .., no
// absolute paths, no backslashes); symbolic links in a zip are refused.

// maxGraphsPerZip bounds the graphs taken from one zip.
const maxGraphsPerZip = 64

// uploadStore keeps the uploaded programs, the newest limit ones.
type uploadStore struct {
	mu    sync.Mutex
	limit int
	byID  map[string]*program
	order []string
}

func newUploadStore(limit int) *uploadStore {
	return &uploadStore{limit: limit, byID: map[string]*program{}}
}

func (u *uploadStore) add(id string, p *program) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.byID[id] = p
	u.order = append(u.order, id)
	for len(u.order) > u.limit {
		delete(u.byID, u.order[0])
		u.order = u.order[1:]
	}
}

func (u *uploadStore) get(id string) *program {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.byID[id]
}

// uploaded describes an uploaded program to the page.
type uploaded struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Format string `json:"format"`
	Ops    int    `json:"ops"`
}

// upload answers POST /api/upload: a multipart form with one file (field "file"). The answer lists the programs
// read from it: one for a program file, one per graph for a zip.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		writeError(w, http.StatusUnsupportedMediaType, "upload a file as multipart/form-data (field \"file\")")
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.lim.MaxUpload+64<<10) // the form's own headers on top of the file
	mr := multipart.NewReader(body, params["boundary"])
	var name string
	var data []byte
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.uploadError(w, err)
			return
		}
		if part.FormName() != "file" {
			continue
		}
		name = path.Base(strings.ReplaceAll(part.FileName(), "\\", "/"))
		data, err = io.ReadAll(io.LimitReader(part, s.lim.MaxUpload+1))
		if err != nil {
			s.uploadError(w, err)
			return
		}
		if int64(len(data)) > s.lim.MaxUpload {
			writeError(w, http.StatusRequestEntityTooLarge, "%s is larger than the upload limit of %s", name, bytesText(s.lim.MaxUpload))
			return
		}
		break
	}
	if data == nil {
		writeError(w, http.StatusBadRequest, "no file in the upload (field \"file\")")
		return
	}
	if name == "" || name == "." || name == "/" {
		name = "upload"
	}
	var progs []*program
	if strings.EqualFold(path.Ext(name), ".zip") || bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		progs, err = s.unzip(name, data)
	} else {
		var p *program
		p, err = s.parseProgram(name, data)
		progs = []*program{p}
	}
	if err != nil {
		var tooBig *limitError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "%v", err)
		} else {
			writeError(w, http.StatusBadRequest, "%v", err)
		}
		return
	}
	var out []uploaded
	for _, p := range progs {
		id := s.nextID("u")
		s.uploads.add(id, p)
		p.mu.Lock()
		out = append(out, uploaded{ID: id, Name: p.name, Format: p.format, Ops: p.prog.NumOps()})
		p.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, struct {
		Programs []uploaded `json:"programs"`
	}{out})
}

// uploadError answers a failed read of the upload.
func (s *Server) uploadError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, "the upload is larger than the limit of %s", bytesText(s.lim.MaxUpload))
		return
	}
	writeError(w, http.StatusBadRequest, "reading the upload: %v", err)
}

// limitError reports an archive past a limit.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// unzip reads the GraphNet graphs of a zip: every folder holding model.py (with weight_meta.py, input_meta.py and
// graph_net.json when present), in the order of their names (subgraph_2 before subgraph_10).
func (s *Server) unzip(name string, data []byte) ([]*program, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: not a zip archive: %v", name, err)
	}
	if len(zr.File) > s.lim.MaxZipFiles {
		return nil, &limitError{fmt.Sprintf("%s has %d entries, more than the %d an upload may have", name, len(zr.File), s.lim.MaxZipFiles)}
	}
	wanted := map[string]bool{graphnet.ModelFile: true, graphnet.WeightMetaFile: true, graphnet.InputMetaFile: true, graphnet.GraphNetJSON: true}
	files := map[string][]byte{} // the graph files, by clean entry name
	budget := s.lim.MaxUnpacked
	for _, f := range zr.File {
		entry, err := entryName(f.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if f.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: entry %s is a symbolic link, which an upload may not hold", name, f.Name)
		}
		if f.FileInfo().IsDir() || strings.HasPrefix(entry, "__MACOSX/") || !wanted[path.Base(entry)] {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, f.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, budget+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, f.Name, err)
		}
		if budget -= int64(len(b)); budget < 0 {
			return nil, &limitError{fmt.Sprintf("%s unpacks to more than the %s an upload may unpack to", name, bytesText(s.lim.MaxUnpacked))}
		}
		files[entry] = b
	}
	var dirs []string
	for entry := range files {
		if path.Base(entry) == graphnet.ModelFile {
			dirs = append(dirs, path.Dir(entry))
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no GraphNet graph (a folder with %s)", name, graphnet.ModelFile)
	}
	if len(dirs) > maxGraphsPerZip {
		return nil, &limitError{fmt.Sprintf("%s holds %d graphs, more than the %d an upload may hold", name, len(dirs), maxGraphsPerZip)}
	}
	sort.Slice(dirs, func(i, j int) bool { return naturalLess(dirs[i], dirs[j]) })
	var out []*program
	for _, d := range dirs {
		at := func(file string) []byte { return files[path.Join(d, file)] }
		label := graphLabel(name, d)
		src := graphnet.Source{Dir: label, Model: at(graphnet.ModelFile), WeightMeta: at(graphnet.WeightMetaFile),
			InputMeta: at(graphnet.InputMetaFile), JSON: at(graphnet.GraphNetJSON)}
		p, err := graphnet.Decode(s.opts.Context, src)
		if err != nil {
			return nil, s.readError(err, func(file string) []byte {
				if rel, ok := strings.CutPrefix(file, label+"/"); ok {
					return at(rel)
				}
				return nil
			})
		}
		prog, err := s.checked(&program{name: label, format: "graphnet", prog: p})
		if err != nil {
			return nil, err
		}
		out = append(out, prog)
	}
	return out, nil
}

// graphLabel names a graph folder d of the zip archive zipName: the archive's name without its extension and the
// folder, once — SegFormer-B5.zip holding SegFormer-B5/subgraph_0 is SegFormer-B5/subgraph_0, not
// SegFormer-B5/SegFormer-B5/subgraph_0.
func graphLabel(zipName, d string) string {
	stem := strings.TrimSuffix(zipName, path.Ext(zipName))
	if first, _, _ := strings.Cut(d, "/"); first == stem || d == "." {
		return path.Join(stem, strings.TrimPrefix(strings.TrimPrefix(d, stem), "/"))
	}
	return path.Join(stem, d)
}

// entryName checks a zip entry's name and returns it cleaned: a relative slash-separated path without .. .
func entryName(n string) (string, error) {
	clean := strings.TrimSuffix(n, "/")
	if clean == "" || strings.Contains(n, "\\") || strings.HasPrefix(n, "/") || !fs.ValidPath(clean) {
		return "", fmt.Errorf("entry %q is not a plain relative path (no .., no absolute paths, no backslashes)", n)
	}
	return clean, nil
}

// naturalLess orders names with their numbers by value: subgraph_2 before subgraph_10.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
