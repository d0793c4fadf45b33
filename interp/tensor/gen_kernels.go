//go:build ignore

// gen_kernels writes kernels_amd64.s, the Go assembly micro-kernels of package tensor (go generate runs it:
// go run gen_kernels.go). The kernels differ only in element type, vector width and tile shape, so they are
// printed from one description rather than written four times by hand; the output is committed, and
// TestGeneratedKernelsUpToDate checks that it is what this program prints.
//
// Every GEMM micro-kernel computes one MR×NR tile of C from a packed A panel (kc steps of MR values) and a packed
// B panel (kc steps of NR values): the accumulators start at zero, step p adds a[p][i]·b[p][j] to accumulator
// (i, j) with one fused multiply-add, and the tile is then stored (acc == 0) or added to C (acc != 0). So every
// element of a tile is the same chain of FMAs in k order, whatever the vector width: the result does not depend on
// how the work is split.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
)

// isa is a vector instruction set: its register names and width.
type isa struct {
	name  string // function name suffix
	reg   string // register prefix: Y or Z
	bytes int    // vector width in bytes
	regs  int    // vector registers
}

var (
	avx2   = isa{name: "AVX2", reg: "Y", bytes: 32, regs: 16}
	avx512 = isa{name: "AVX512", reg: "Z", bytes: 64, regs: 32}
)

// elem is an element type: its size and the instruction suffix.
type elem struct {
	goType string
	size   int
	ps     string // PS or PD
	bcast  string // VBROADCASTSS or VBROADCASTSD
	name   string // F32 or F64
}

var (
	f32 = elem{goType: "float32", size: 4, ps: "PS", bcast: "VBROADCASTSS", name: "F32"}
	f64 = elem{goType: "float64", size: 8, ps: "PD", bcast: "VBROADCASTSD", name: "F64"}
)

// gemmKernel is one micro-kernel: MR rows of C by NV vectors of columns, the k loop unrolled unroll times.
type gemmKernel struct {
	isa    isa
	elem   elem
	mr, nv int
	unroll int
}

// The tile shapes, chosen by measurement (BenchmarkMatmul512F32, BenchmarkConv2DResNet3x3F32 and their float64
// forms on an AMD EPYC Zen 4): the accumulators take most registers, leaving two for the B row and the rest for
// broadcasts of A.
var gemmKernels = []gemmKernel{
	{isa: avx2, elem: f32, mr: 6, nv: 2, unroll: 4},
	{isa: avx2, elem: f64, mr: 6, nv: 2, unroll: 4},
	{isa: avx512, elem: f32, mr: 12, nv: 2, unroll: 4},
	{isa: avx512, elem: f64, mr: 12, nv: 2, unroll: 4},
}

type writer struct{ bytes.Buffer }

func (w *writer) p(format string, args ...any) { fmt.Fprintf(&w.Buffer, format+"\n", args...) }

func (g gemmKernel) fn(rowA bool) string {
	if rowA {
		return fmt.Sprintf("gemm%s%sRowA", g.elem.name, g.isa.name)
	}
	return fmt.Sprintf("gemm%s%s", g.elem.name, g.isa.name)
}

func (g gemmKernel) vreg(i int) string { return fmt.Sprintf("%s%d", g.isa.reg, i) }

// emit writes the kernel, with A packed (a panel of k steps of MR values) or, with rowA, read in place (MR rows of
// a row-major matrix, lda elements apart, from which step p reads column p): the same values in the same order, so
// the two forms give the same bits. Registers: accumulators 0 … MR·NV-1, then NV for the B row, the rest for
// broadcasts; in the rowA form SI addresses rows 0–5 and R10 rows 6–11, as base + {0, 1, 2, 4}·lda (R11) and
// + 3·lda (R12), + 5·lda (R13).
func (g gemmKernel) emit(w *writer, rowA bool) {
	lanes := g.isa.bytes / g.elem.size
	nacc := g.mr * g.nv
	bReg := nacc
	firstBcast := nacc + g.nv
	nBcast := g.isa.regs - firstBcast
	fn := g.fn(rowA)
	if nBcast < 1 {
		log.Fatalf("%s: %d accumulators and %d B registers leave no register for A", fn, nacc, g.nv)
	}
	if rowA && g.mr > 12 {
		log.Fatalf("%s: the row addressing reaches 12 rows, not %d", fn, g.mr)
	}
	shift := map[int]int{4: 2, 8: 3}[g.elem.size]
	acc := func(i, v int) string { return g.vreg(i*g.nv + v) }
	// aAddr is the address of A's element of row i at step p.
	aAddr := func(i, p int) string {
		if !rowA {
			return fmt.Sprintf("%d(SI)", (p*g.mr+i)*g.elem.size)
		}
		base := "SI"
		if i >= 6 {
			base, i = "R10", i-6
		}
		off := p * g.elem.size
		return fmt.Sprintf("%d(%s)%s", off, base, []string{"", "(R11*1)", "(R11*2)", "(R12*1)", "(R11*4)", "(R13*1)"}[i])
	}
	if rowA {
		w.p("// func %s(k int, a *%s, lda int, b, c *%s, ldc int, acc int)", fn, g.elem.goType, g.elem.goType)
	} else {
		w.p("// func %s(k int, a, b, c *%s, ldc int, acc int)", fn, g.elem.goType)
	}
	w.p("// %d×%d tile (%d rows of %d %s vectors), k unrolled %d times.", g.mr, g.nv*lanes, g.mr, g.nv, g.isa.reg+"MM", g.unroll)
	if rowA {
		w.p("TEXT ·%s(SB), NOSPLIT, $0-56", fn)
		w.p("\tMOVQ k+0(FP), CX")
		w.p("\tMOVQ a+8(FP), SI")
		w.p("\tMOVQ lda+16(FP), R11")
		w.p("\tMOVQ b+24(FP), DI")
		w.p("\tMOVQ c+32(FP), DX")
		w.p("\tMOVQ ldc+40(FP), R8")
		w.p("\tMOVQ acc+48(FP), R9")
		w.p("\tSHLQ $%d, R11", shift)
		w.p("\tLEAQ (R11)(R11*2), R12")
		w.p("\tLEAQ (R11)(R11*4), R13")
		w.p("\tLEAQ (SI)(R12*2), R10")
	} else {
		w.p("TEXT ·%s(SB), NOSPLIT, $0-48", fn)
		w.p("\tMOVQ k+0(FP), CX")
		w.p("\tMOVQ a+8(FP), SI")
		w.p("\tMOVQ b+16(FP), DI")
		w.p("\tMOVQ c+24(FP), DX")
		w.p("\tMOVQ ldc+32(FP), R8")
		w.p("\tMOVQ acc+40(FP), R9")
	}
	w.p("\tSHLQ $%d, R8", shift)
	for i := range nacc {
		w.p("\tVXORPS %s, %s, %s", g.vreg(i), g.vreg(i), g.vreg(i))
	}
	step := func(p int) {
		bOff := p * g.nv * g.isa.bytes
		for v := range g.nv {
			w.p("\tVMOVUP%s %d(DI), %s", g.elem.ps[1:], bOff+v*g.isa.bytes, g.vreg(bReg+v))
		}
		for i := range g.mr {
			r := g.vreg(firstBcast + i%nBcast)
			w.p("\t%s %s, %s", g.elem.bcast, aAddr(i, p), r)
			for v := range g.nv {
				w.p("\tVFMADD231%s %s, %s, %s", g.elem.ps, r, g.vreg(bReg+v), acc(i, v))
			}
		}
	}
	advance := func(steps int) {
		if rowA {
			w.p("\tADDQ $%d, SI", steps*g.elem.size)
			if g.mr > 6 {
				w.p("\tADDQ $%d, R10", steps*g.elem.size)
			}
		} else {
			w.p("\tADDQ $%d, SI", steps*g.mr*g.elem.size)
		}
		w.p("\tADDQ $%d, DI", steps*g.nv*g.isa.bytes)
	}
	w.p("\tCMPQ CX, $%d", g.unroll)
	w.p("\tJLT %s_tail", fn)
	w.p("%s_loop:", fn)
	for p := range g.unroll {
		step(p)
	}
	advance(g.unroll)
	w.p("\tSUBQ $%d, CX", g.unroll)
	w.p("\tCMPQ CX, $%d", g.unroll)
	w.p("\tJGE %s_loop", fn)
	w.p("%s_tail:", fn)
	w.p("\tTESTQ CX, CX")
	w.p("\tJZ %s_store", fn)
	step(0)
	advance(1)
	w.p("\tDECQ CX")
	w.p("\tJMP %s_tail", fn)
	w.p("%s_store:", fn)
	w.p("\tMOVQ DX, BX")
	w.p("\tTESTQ R9, R9")
	w.p("\tJZ %s_overwrite", fn)
	// acc != 0: C + tile, one rounding per element (addition commutes, so this is C + tile in any operand order).
	for i := range g.mr {
		for v := range g.nv {
			w.p("\tVADD%s %d(DX), %s, %s", g.elem.ps, v*g.isa.bytes, acc(i, v), acc(i, v))
		}
		if i < g.mr-1 {
			w.p("\tADDQ R8, DX")
		}
	}
	w.p("\tMOVQ BX, DX")
	w.p("%s_overwrite:", fn)
	for i := range g.mr {
		for v := range g.nv {
			w.p("\tVMOVUP%s %s, %d(DX)", g.elem.ps[1:], acc(i, v), v*g.isa.bytes)
		}
		if i < g.mr-1 {
			w.p("\tADDQ R8, DX")
		}
	}
	w.p("\tVZEROUPPER")
	w.p("\tRET")
	w.p("")
}

// axpyKernel is y[i] += a·x[i] over n elements (one FMA per element), unroll vectors per iteration, then single
// vectors, then scalars (VFMADD231SS/SD: the same fused operation, so every element gets one rounding whatever
// its position).
type axpyKernel struct {
	isa    isa
	elem   elem
	unroll int
}

var axpyKernels = []axpyKernel{
	{isa: avx2, elem: f32, unroll: 4},
	{isa: avx2, elem: f64, unroll: 4},
	{isa: avx512, elem: f32, unroll: 4},
	{isa: avx512, elem: f64, unroll: 4},
}

func (g axpyKernel) fn() string { return fmt.Sprintf("axpy%s%s", g.elem.name, g.isa.name) }

func (g axpyKernel) emit(w *writer) {
	lanes := g.isa.bytes / g.elem.size
	v := func(i int) string { return fmt.Sprintf("%s%d", g.isa.reg, i) }
	scalar := map[int]string{4: "SS", 8: "SD"}[g.elem.size]
	w.p("// func %s(a %s, x, y *%s, n int)", g.fn(), g.elem.goType, g.elem.goType)
	w.p("TEXT ·%s(SB), NOSPLIT, $0-32", g.fn())
	w.p("\t%s a+0(FP), %s", g.elem.bcast, v(0))
	w.p("\tMOVQ x+8(FP), SI")
	w.p("\tMOVQ y+16(FP), DI")
	w.p("\tMOVQ n+24(FP), CX")
	block := g.unroll * lanes
	w.p("%s_block:", g.fn())
	w.p("\tCMPQ CX, $%d", block)
	w.p("\tJLT %s_vector", g.fn())
	for u := range g.unroll {
		w.p("\tVMOVUP%s %d(DI), %s", g.elem.ps[1:], u*g.isa.bytes, v(1+u))
	}
	for u := range g.unroll {
		w.p("\tVFMADD231%s %d(SI), %s, %s", g.elem.ps, u*g.isa.bytes, v(0), v(1+u))
	}
	for u := range g.unroll {
		w.p("\tVMOVUP%s %s, %d(DI)", g.elem.ps[1:], v(1+u), u*g.isa.bytes)
	}
	w.p("\tADDQ $%d, SI", g.unroll*g.isa.bytes)
	w.p("\tADDQ $%d, DI", g.unroll*g.isa.bytes)
	w.p("\tSUBQ $%d, CX", block)
	w.p("\tJMP %s_block", g.fn())
	w.p("%s_vector:", g.fn())
	w.p("\tCMPQ CX, $%d", lanes)
	w.p("\tJLT %s_scalar", g.fn())
	w.p("\tVMOVUP%s (DI), %s", g.elem.ps[1:], v(1))
	w.p("\tVFMADD231%s (SI), %s, %s", g.elem.ps, v(0), v(1))
	w.p("\tVMOVUP%s %s, (DI)", g.elem.ps[1:], v(1))
	w.p("\tADDQ $%d, SI", g.isa.bytes)
	w.p("\tADDQ $%d, DI", g.isa.bytes)
	w.p("\tSUBQ $%d, CX", lanes)
	w.p("\tJMP %s_vector", g.fn())
	w.p("%s_scalar:", g.fn())
	w.p("\tTESTQ CX, CX")
	w.p("\tJZ %s_done", g.fn())
	w.p("\tVMOV%s (DI), X1", scalar)
	w.p("\tVFMADD231%s (SI), X0, X1", scalar)
	w.p("\tVMOV%s X1, (DI)", scalar)
	w.p("\tADDQ $%d, SI", g.elem.size)
	w.p("\tADDQ $%d, DI", g.elem.size)
	w.p("\tDECQ CX")
	w.p("\tJMP %s_scalar", g.fn())
	w.p("%s_done:", g.fn())
	w.p("\tVZEROUPPER")
	w.p("\tRET")
	w.p("")
}

// dealKernel copies chunks runs of one panel row's width (bytes: nr values) from a contiguous source row to
// panels stride bytes apart: the packing of one row of B into its place in every nr-wide panel.
type dealKernel struct {
	isa  isa
	elem elem
}

var dealKernels = []dealKernel{
	{isa: avx2, elem: f32}, {isa: avx2, elem: f64}, {isa: avx512, elem: f32}, {isa: avx512, elem: f64},
}

func (g dealKernel) fn() string { return fmt.Sprintf("deal%s%s", g.elem.name, g.isa.name) }

func (g dealKernel) emit(w *writer) {
	w.p("// func %s(dst *%s, stride int, src *%s, chunks int)", g.fn(), g.elem.goType, g.elem.goType)
	w.p("// Copies chunks runs of %d bytes (two vectors) from src to dst, dst advancing stride values a run.", 2*g.isa.bytes)
	w.p("TEXT ·%s(SB), NOSPLIT, $0-32", g.fn())
	w.p("\tMOVQ dst+0(FP), DI")
	w.p("\tMOVQ stride+8(FP), R8")
	w.p("\tMOVQ src+16(FP), SI")
	w.p("\tMOVQ chunks+24(FP), CX")
	w.p("\tSHLQ $%d, R8", map[int]int{4: 2, 8: 3}[g.elem.size])
	w.p("\tTESTQ CX, CX")
	w.p("\tJZ %s_done", g.fn())
	w.p("%s_loop:", g.fn())
	r0, r1 := g.isa.reg+"0", g.isa.reg+"1"
	w.p("\tVMOVUPS (SI), %s", r0)
	w.p("\tVMOVUPS %d(SI), %s", g.isa.bytes, r1)
	w.p("\tVMOVUPS %s, (DI)", r0)
	w.p("\tVMOVUPS %s, %d(DI)", r1, g.isa.bytes)
	w.p("\tADDQ $%d, SI", 2*g.isa.bytes)
	w.p("\tADDQ R8, DI")
	w.p("\tDECQ CX")
	w.p("\tJNZ %s_loop", g.fn())
	w.p("%s_done:", g.fn())
	w.p("\tVZEROUPPER")
	w.p("\tRET")
	w.p("")
}

func generate() []byte {
	var w writer
	w.p("// Code generated by gen_kernels.go; DO NOT EDIT.")
	w.p("")
	w.p("//go:build amd64 && !purego")
	w.p("")
	w.p("#include \"textflag.h\"")
	w.p("")
	for _, g := range gemmKernels {
		g.emit(&w, false)
		g.emit(&w, true)
	}
	for _, g := range axpyKernels {
		g.emit(&w)
	}
	for _, g := range dealKernels {
		g.emit(&w)
	}
	return bytes.TrimRight(w.Bytes(), "\n")
}

func main() {
	out := flag.String("o", "kernels_amd64.s", "output file")
	flag.Parse()
	src := append(generate(), '\n')
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
