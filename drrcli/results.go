package drrcli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pirdrr/drr/internal/fileio"
	"github.com/pirdrr/drr/stats"
)

// resultsSchema is the version of the result records drrc verify -results and drrc apply -results write, and the
// one drrc report reads: a record of another version is an error, not a guess.
const resultsSchema = "pirdrr-results/1"

// The statuses of a result record.
const (
	statusOK     = "ok"     // verify: every output agrees; apply: the program was rewritten and written
	statusFailed = "failed" // verify: an output differs beyond its tolerance
	statusError  = "error"  // the program could not be read, rewritten or evaluated (Error says why)
)

// resultRecord is one program's result: one line of a results file (JSON lines). Its cost figures and pass
// statistics are the schema of package stats (Stats); the rest is what the run adds.
type resultRecord struct {
	Schema  string `json:"schema"`
	Command string `json:"command"` // verify or apply
	// Program is the program's path as the command found it; Key the name its shard was chosen by (shard.Key).
	Program string `json:"program"`
	Key     string `json:"key"`
	// Shard is the shard that ran the program (K/N, K from 1); ShardPrograms the programs assigned to that shard,
	// Programs those of all shards: drrc report finds the gaps with them.
	Shard         string `json:"shard"`
	ShardPrograms int    `json:"shard_programs"`
	Programs      int    `json:"programs"`
	Status        string `json:"status"`
	Error         string `json:"error,omitempty"`
	// Verify: the outputs compared, the largest absolute and relative error over them, the precision and the
	// kernel path of the evaluation.
	Outputs   int     `json:"outputs,omitempty"`
	MaxAbs    float64 `json:"max_abs,omitempty"`
	MaxRel    float64 `json:"max_rel,omitempty"`
	Precision string  `json:"precision,omitempty"`
	Kernels   string  `json:"kernels,omitempty"`
	// Times: the program's wall time and the process's CPU time (user+system) while it ran, and their parts (verify:
	// passes and evaluation; apply: parse, rewrite, check, print).
	WallNS    int64 `json:"wall_ns"`
	CPUNS     int64 `json:"cpu_ns,omitempty"`
	PassNS    int64 `json:"pass_ns,omitempty"`
	EvalNS    int64 `json:"eval_ns,omitempty"`
	ParseNS   int64 `json:"parse_ns,omitempty"`
	RewriteNS int64 `json:"rewrite_ns,omitempty"`
	CheckNS   int64 `json:"check_ns,omitempty"`
	PrintNS   int64 `json:"print_ns,omitempty"`
	// PeakRSS is the largest resident set while the program ran (bytes), PeakRSSFrom how it was measured (see
	// peakRSS); both empty when it cannot be attributed to the program.
	PeakRSS     int64  `json:"peak_rss_bytes,omitempty"`
	PeakRSSFrom string `json:"peak_rss_from,omitempty"`
	// Stats are the program's cost figures before and after its passes and the passes' statistics.
	Stats *stats.Program `json:"stats,omitempty"`
}

// recordAt is a record read from a file, with its position.
type recordAt struct {
	resultRecord
	file string
	line int
}

func (r *recordAt) pos() string { return fmt.Sprintf("%s:%d", r.file, r.line) }

// readResults reads a results file: one record per non-empty line. A line that is not a JSON object of the
// current schema is an error at its position (file:line:col for bad JSON, file:line otherwise).
func readResults(path string, limit int64) ([]*recordAt, error) {
	src, err := fileio.ReadFile(path, limit)
	if err != nil {
		return nil, err
	}
	return parseResults(path, src)
}

// parseResults parses the records of a results file's content.
func parseResults(path string, src []byte) ([]*recordAt, error) {
	var out []*recordAt
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, len(src)+1)
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		r := &recordAt{file: path, line: line}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r.resultRecord); err != nil {
			col := 1
			var syn *json.SyntaxError
			var typ *json.UnmarshalTypeError
			switch {
			case errors.As(err, &syn):
				col = int(syn.Offset)
			case errors.As(err, &typ):
				col = int(typ.Offset)
			case errors.Is(err, io.ErrUnexpectedEOF):
				col = len(text) + 1
				err = errors.New("the line ends inside its record (a truncated write?)")
			}
			if r.Schema != "" && r.Schema != resultsSchema {
				return nil, schemaError(r)
			}
			return nil, fmt.Errorf("%s:%d:%d: not a result record: %v", path, line, max(col, 1), err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", path, line)
		}
		if r.Schema != resultsSchema {
			return nil, schemaError(r)
		}
		if r.Program == "" || r.Command == "" || r.Status == "" {
			return nil, fmt.Errorf("%s:%d: a result record needs its program, command and status", path, line)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

func schemaError(r *recordAt) error {
	if r.Schema == "" {
		return fmt.Errorf("%s: a record without a schema: this is not a drrc results file (want %q)", r.pos(), resultsSchema)
	}
	return fmt.Errorf("%s: a record of schema %q: this drrc reads %q (rerun the programs, or use the drrc that wrote it)",
		r.pos(), r.Schema, resultsSchema)
}

// resultsWriter appends records to a results file, one line each, written as one write so that a run stopped
// between programs leaves whole lines.
type resultsWriter struct {
	f *os.File
}

// openResults opens path for appending, creating it when absent.
func openResults(path string) (*resultsWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &resultsWriter{f: f}, nil
}

// write appends one record.
func (w *resultsWriter) write(r *resultRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.f.Write(append(line, '\n'))
	return err
}

func (w *resultsWriter) close() error { return w.f.Close() }

// statusWord is the status column of the text outputs.
func statusWord(s string) string {
	if s == statusOK {
		return s
	}
	return strings.ToUpper(s)
}
