package pirjson

import (
	"encoding/json"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/pirdrr/drr/ir"
	"github.com/pirdrr/drr/ir/pirtext"
)

// The large benchmark program is the bench workload of shared/bench/gen.py (100000 blocks, about 309k ops),
// generated with
//
//	python3 ../shared/bench/gen.py 100000 --format=pir -o /tmp/w100000.pir   (from the module root)
//
// read with pirtext into a Context without dialects (all ops unregistered) and converted to PIR JSON.
const benchPIR = "/tmp/w100000.pir"

var (
	benchOnce sync.Once
	benchJSON []byte
	benchErr  string
)

// largeJSON returns the bench workload as PIR JSON, or skips.
func largeJSON(tb testing.TB) []byte {
	benchOnce.Do(func() {
		src, err := os.ReadFile(benchPIR)
		if err != nil {
			benchErr = "no " + benchPIR + " (generate it from the module root with: python3 ../shared/bench/gen.py 100000 --format=pir -o " + benchPIR + ")"
			return
		}
		p, _, err := pirtext.Parse(ir.NewContext(), benchPIR, src, pirtext.ReadOptions{})
		if err != nil {
			benchErr = err.Error()
			return
		}
		benchJSON, err = Marshal(p, WriteOptions{})
		if err != nil {
			benchErr = err.Error()
		}
	})
	if benchErr != "" {
		tb.Skip(benchErr)
	}
	return benchJSON
}

// liveHeap returns the bytes of heap that stay reachable while f's result is kept.
func liveHeap(f func() any) (uint64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc, v
}

func benchRead(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(ir.NewContext(), "bench.json", src, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	live, p := liveHeap(func() any {
		p, _ := Read(ir.NewContext(), "bench.json", src, ReadOptions{})
		return p
	})
	b.ReportMetric(float64(live)/1e6, "program-MB")
	b.ReportMetric(float64(p.(*ir.Program).NumOps()), "ops")
}

func benchWrite(b *testing.B, src []byte) {
	p, err := Read(ir.NewContext(), "bench.json", src, ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(p, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(p.NumOps()), "ops")
}

func BenchmarkReadServerDet(b *testing.B)  { benchRead(b, corpusFile(b, serverDet)) }
func BenchmarkWriteServerDet(b *testing.B) { benchWrite(b, corpusFile(b, serverDet)) }
func BenchmarkReadLarge(b *testing.B)      { benchRead(b, largeJSON(b)) }
func BenchmarkWriteLarge(b *testing.B)     { benchWrite(b, largeJSON(b)) }

// Prototypes for the choice of the reader's tokenizer: encoding/json decoding the file into typed structs (what a
// reader built on encoding/json would start from, before decoding any payload or building any IR) and into a
// generic tree, versus this package's scanner visiting every token (walkTokens, no IR) and the full Read above.

type protoFile struct {
	BaseCode struct {
		Magic     string `json:"magic"`
		Trainable bool   `json:"trainable"`
		Version   int    `json:"version"`
	} `json:"base_code"`
	Program struct {
		Regions []protoRegion `json:"regions"`
	} `json:"program"`
}

type protoRegion struct {
	ID     string       `json:"#"`
	Blocks []protoBlock `json:"blocks"`
}

type protoBlock struct {
	ID   string     `json:"#"`
	Args []protoVal `json:"args"`
	Ops  []protoOp  `json:"ops"`
	KW   []protoVal `json:"kwargs"`
}

type protoVal struct {
	ID int64       `json:"%"`
	TT protoObject `json:"TT"`
}

type protoObject struct {
	ID string `json:"#"`
	D  any    `json:"D"`
	VD string `json:"VD"`
}

type protoOp struct {
	ID string          `json:"#"`
	A  json.RawMessage `json:"A"` // positional for p, entries otherwise
	I  []struct {
		ID int64 `json:"%"`
	}
	O       json.RawMessage `json:"O"` // an object for p, an array otherwise
	OA      json.RawMessage `json:"OA"`
	Regions []protoRegion   `json:"regions"`
}

func benchProtoStructs(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var f protoFile
		if err := json.Unmarshal(src, &f); err != nil {
			b.Fatal(err)
		}
		// Decode the A and O lists, still without building IR.
		for _, op := range f.Program.Regions[0].Blocks[0].Ops {
			if op.ID == "p" {
				continue
			}
			var attrs []struct {
				AT protoObject `json:"AT"`
				N  string      `json:"N"`
			}
			var outs []protoVal
			if err := json.Unmarshal(op.A, &attrs); err != nil {
				b.Fatal(err)
			}
			if err := json.Unmarshal(op.O, &outs); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func benchProtoAny(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchProtoScan(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := scanner{src: src, line: 1}
		if err := walkTokens(&s); err != nil {
			b.Fatal(err)
		}
	}
}

// walkTokens reads every token of a JSON value with the scanner, decoding strings and numbers, building nothing.
func walkTokens(s *scanner) error {
	switch s.ws() {
	case '{':
		return s.object(func([]byte, int) error { return walkTokens(s) })
	case '[':
		return s.array(func(int) error { return walkTokens(s) })
	case '"':
		_, err := s.str()
		return err
	case 't', 'f':
		_, err := s.boolean()
		return err
	}
	_, err := s.float()
	return err
}

func BenchmarkProtoEncodingJSONStructsServerDet(b *testing.B) {
	benchProtoStructs(b, corpusFile(b, serverDet))
}
func BenchmarkProtoEncodingJSONAnyServerDet(b *testing.B) { benchProtoAny(b, corpusFile(b, serverDet)) }
func BenchmarkProtoScannerServerDet(b *testing.B)         { benchProtoScan(b, corpusFile(b, serverDet)) }
func BenchmarkProtoEncodingJSONStructsLarge(b *testing.B) { benchProtoStructs(b, largeJSON(b)) }
func BenchmarkProtoEncodingJSONAnyLarge(b *testing.B)     { benchProtoAny(b, largeJSON(b)) }
func BenchmarkProtoScannerLarge(b *testing.B)             { benchProtoScan(b, largeJSON(b)) }
