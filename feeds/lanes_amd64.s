//go:build amd64 && !purego

#include "textflag.h"

// The normal draws of eight chunks at once, one chunk per 64-bit lane of a ZMM register (lanes_amd64.go says how
// the result stays the numbers of drawChunkInto).

// ADVANCE steps the xoshiro256++ states of the lanes in mask K (state in Z0..Z3, temporaries Z12..Z17) and leaves
// their outputs in U.
#define ADVANCE(K, U) \
	VPADDQ Z3, Z0, Z12; \
	VPROLQ $23, Z12, Z12; \
	VPADDQ Z0, Z12, Z12; \
	VPSLLQ $17, Z1, Z13; \
	VPXORQ Z0, Z2, Z16; \
	VPXORQ Z1, Z3, Z17; \
	VPXORQ Z16, Z1, Z15; \
	VPXORQ Z17, Z0, Z14; \
	VPXORQ Z13, Z16, Z16; \
	VPROLQ $45, Z17, Z17; \
	VMOVDQA64 Z14, K, Z0; \
	VMOVDQA64 Z15, K, Z1; \
	VMOVDQA64 Z16, K, Z2; \
	VMOVDQA64 Z17, K, Z3; \
	VMOVDQA64 Z12, U

// HORNER is one step of the exponential's polynomial: Z30 = Z28·Z30 + c, c the float64 at OFF(R8).
#define HORNER(OFF) \
	VBROADCASTSD OFF(R8), Z31; \
	VFMADD213PD Z31, Z28, Z30

// func normalLanesAVX512(st *laneState, dst *float32, n int, mask uint64, par *laneParams, zx, zf *float64) int
//
// Registers: Z0-Z3 the lanes' states, Z4-Z7 the states at the start of the element (restored on exit), Z8 u, Z9
// its layer i, Z10 the point z ≥ 0, Z18 z with its sign, Z11 the element's results; Z19 the lanes' offsets, Z20 127,
// Z21 2^-53, Z22 128 (the sign bit), Z23-Z26 mean, std, lo, hi; K1 the lanes drawing, K4 those outside their
// rectangle. The wedge: Z27 y, Z28 x = -z²/2 then its reduced argument r, Z29 x·log2 e + 1.5·2^52 (the integer k in
// its low bits, then 2^k), Z13 k, Z30 the polynomial, then exp(x) ≈ 2^k·p(r).
TEXT ·normalLanesAVX512(SB), NOSPLIT, $0-64
	MOVQ st+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), DX
	MOVQ par+32(FP), R8
	MOVQ zx+40(FP), R9
	MOVQ zf+48(FP), R10
	LEAQ 8(R9), R11
	LEAQ 8(R10), R12
	VMOVDQU64 0(SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	VMOVDQU64 256(SI), Z19
	MOVQ $127, AX
	VPBROADCASTQ AX, Z20
	MOVQ $128, AX
	VPBROADCASTQ AX, Z22
	VBROADCASTSD 0(R8), Z23
	VBROADCASTSD 8(R8), Z24
	VBROADCASTSD 16(R8), Z25
	VBROADCASTSD 24(R8), Z26
	VBROADCASTSD 32(R8), Z21
	XORQ BX, BX

loop:
	CMPQ BX, CX
	JGE done
	VMOVDQA64 Z0, Z4
	VMOVDQA64 Z1, Z5
	VMOVDQA64 Z2, Z6
	VMOVDQA64 Z3, Z7
	KXNORB K1, K1, K1

redo:
	// The lanes of K1 draw: u, its layer, and the point z in the layer.
	ADVANCE(K1, Z8)
	VPANDQ Z20, Z8, Z9
	VPSRLQ $11, Z8, Z10
	VCVTQQ2PD Z10, Z10
	VMULPD Z21, Z10, Z10
	KMOVB K1, K2
	VGATHERQPD (R9)(Z9*8), K2, Z12
	KMOVB K1, K2
	VGATHERQPD (R11)(Z9*8), K2, Z13
	VMULPD Z12, Z10, Z10
	VPANDQ Z22, Z8, Z14
	VPSLLQ $56, Z14, Z14
	VPXORQ Z14, Z10, Z18
	VCMPPD $1, Z13, Z10, K1, K3
	VMOVAPD Z18, K3, Z11
	VCMPPD $13, Z13, Z10, K1, K4
	KORTESTB K4, K4
	JZ store

	// Lanes outside their layer's rectangle: the tail leaves the rest to Go; in the wedge, a second number
	// places y between the layer's f values, and y is compared with exp(-z²/2).
	VPTESTNMQ Z9, Z9, K4, K5
	KORTESTB K5, K5
	JNZ exit
	ADVANCE(K4, Z27)
	VPSRLQ $11, Z27, Z27
	VCVTQQ2PD Z27, Z27
	VMULPD Z21, Z27, Z27
	KMOVB K4, K2
	VGATHERQPD (R10)(Z9*8), K2, Z28
	KMOVB K4, K2
	VGATHERQPD (R12)(Z9*8), K2, Z29
	VSUBPD Z28, Z29, Z29
	VMULPD Z29, Z27, Z27
	VADDPD Z27, Z28, Z27
	VBROADCASTSD 40(R8), Z28
	VMULPD Z10, Z28, Z28
	VMULPD Z10, Z28, Z28
	VBROADCASTSD 48(R8), Z29
	VMULPD Z29, Z28, Z29
	VBROADCASTSD 160(R8), Z31
	VADDPD Z31, Z29, Z29
	VSUBPD Z31, Z29, Z13
	VBROADCASTSD 56(R8), Z30
	VFNMADD231PD Z30, Z13, Z28
	VBROADCASTSD 64(R8), Z30
	VFNMADD231PD Z30, Z13, Z28
	VBROADCASTSD 152(R8), Z30
	HORNER(144)
	HORNER(136)
	HORNER(128)
	HORNER(120)
	HORNER(112)
	HORNER(104)
	HORNER(96)
	HORNER(88)
	MOVQ $1023, AX
	VPBROADCASTQ AX, Z31
	VPADDQ Z31, Z29, Z29
	VPSLLQ $52, Z29, Z29
	VMULPD Z29, Z30, Z30
	VBROADCASTSD 72(R8), Z31
	VMULPD Z31, Z30, Z31
	VCMPPD $13, Z31, Z27, K4, K6
	VCMPPD $1, Z31, Z27, K4, K5
	VBROADCASTSD 80(R8), Z31
	VMULPD Z31, Z30, Z31
	VCMPPD $1, Z31, Z27, K4, K7
	VMOVAPD Z18, K7, Z11
	VCMPPD $13, Z31, Z27, K5, K5
	KORTESTB K5, K5
	JNZ exit
	KMOVB K6, K1
	KORTESTB K1, K1
	JNZ redo

store:
	VMULPD Z24, Z11, Z12
	VADDPD Z23, Z12, Z12
	VMAXPD Z12, Z25, Z12
	VMINPD Z12, Z26, Z12
	VCVTPD2PS Z12, Y12
	KMOVB DX, K2
	VSCATTERQPS Y12, K2, (DI)(Z19*4)
	ADDQ $4, DI
	INCQ BX
	JMP loop

exit:
	VMOVDQA64 Z4, Z0
	VMOVDQA64 Z5, Z1
	VMOVDQA64 Z6, Z2
	VMOVDQA64 Z7, Z3

done:
	VMOVDQU64 Z0, 0(SI)
	VMOVDQU64 Z1, 64(SI)
	VMOVDQU64 Z2, 128(SI)
	VMOVDQU64 Z3, 192(SI)
	MOVQ BX, ret+56(FP)
	VZEROUPPER
	RET
