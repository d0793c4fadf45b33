//go:build amd64 && !purego

#include "textflag.h"

// func expF64AVX512(x *float64, n int) int
//
// math.Exp of eight float64 at a time, in place: the operations of the FMA path of the standard library's
// archExp (math/exp_amd64.s: k = round(x·log2 e), r = (x − k·ln2 upper − k·ln2 lower)/16 with fused steps, a
// Taylor polynomial by fused multiply-adds, squared back four times, times 2^k), so every lane gets its bits.
// Lanes whose result is 0 (2^k below the smallest denormal's range) are 0 here too; a vector with a lane archExp
// treats specially (NaN, +Inf, beyond its overflow bound, a denormal or infinite result) ends the run before it,
// and ExpInPlace computes that vector with math.Exp. It returns how many elements it did (a multiple of 8).
TEXT ·expF64AVX512(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ BX, BX
	MOVQ $0x3FF71547652B82FE, AX // log2 e
	VPBROADCASTQ AX, Z20
	MOVQ $0x3FE62E42FEFA3000, AX // ln 2, upper part
	VPBROADCASTQ AX, Z21
	MOVQ $0x3D53DE6AF278ECE6, AX // ln 2, lower part
	VPBROADCASTQ AX, Z22
	MOVQ $0x3FB0000000000000, AX // 0.0625
	VPBROADCASTQ AX, Z23
	MOVQ $0x3EFA01A01A01A01A, AX // 1/8!
	VPBROADCASTQ AX, Z24
	MOVQ $0x3F2A01A01A01A01A, AX // 1/7!
	VPBROADCASTQ AX, Z25
	MOVQ $0x3F56C16C16C16C17, AX // 1/6!
	VPBROADCASTQ AX, Z26
	MOVQ $0x3F81111111111111, AX // 1/5!
	VPBROADCASTQ AX, Z27
	MOVQ $0x3FA5555555555555, AX // 1/4!
	VPBROADCASTQ AX, Z28
	MOVQ $0x3FC5555555555555, AX // 1/3!
	VPBROADCASTQ AX, Z29
	MOVQ $0x3FE0000000000000, AX // 0.5
	VPBROADCASTQ AX, Z30
	MOVQ $0x3FF0000000000000, AX // 1
	VPBROADCASTQ AX, Z31
	MOVQ $0x4000000000000000, AX // 2
	VPBROADCASTQ AX, Z19
	MOVQ $0x40862E42FEFA39EF, AX // archExp's overflow bound, 7.09782712893384e+02
	VPBROADCASTQ AX, Z18
	MOVQ $1023, AX
	VPBROADCASTQ AX, Z17
	MOVQ $1, AX
	VPBROADCASTQ AX, Z16
	MOVQ $2046, AX
	VPBROADCASTQ AX, Z15
	MOVQ $-52, AX
	VPBROADCASTQ AX, Z14

loop:
	LEAQ 8(BX), AX
	CMPQ AX, CX
	JGT done
	VMOVUPD (SI)(BX*8), Z0
	VCMPPD $2, Z18, Z0, K1          // x ≤ the bound (false for NaN)
	VMULPD Z20, Z0, Z1
	VCVTPD2DQ Z1, Y2                // k, rounded to nearest like CVTSD2SL
	VCVTDQ2PD Y2, Z1
	VFNMADD231PD Z21, Z1, Z0
	VFNMADD231PD Z22, Z1, Z0
	VMULPD Z23, Z0, Z0
	VMOVAPD Z24, Z3
	VFMADD213PD Z25, Z0, Z3
	VFMADD213PD Z26, Z0, Z3
	VFMADD213PD Z27, Z0, Z3
	VFMADD213PD Z28, Z0, Z3
	VFMADD213PD Z29, Z0, Z3
	VFMADD213PD Z30, Z0, Z3
	VFMADD213PD Z31, Z0, Z3
	VMULPD Z3, Z0, Z0
	VADDPD Z19, Z0, Z3
	VMULPD Z3, Z0, Z0
	VADDPD Z19, Z0, Z3
	VMULPD Z3, Z0, Z0
	VADDPD Z19, Z0, Z3
	VMULPD Z3, Z0, Z0
	VADDPD Z19, Z0, Z3
	VFMADD213PD Z31, Z3, Z0
	VPMOVSXDQ Y2, Z4
	VPADDQ Z17, Z4, Z4              // the biased exponent k + 1023
	VPCMPQ $5, Z16, Z4, K1, K2      // normal: ≥ 1
	VPCMPQ $2, Z15, Z4, K2, K2      // and ≤ 2046
	VPCMPQ $1, Z14, Z4, K1, K3      // zero: < -52
	KORTESTB K2, K3
	JCC done                        // some lane is special
	VPSLLQ $52, Z4, Z4
	VMULPD.Z Z4, Z0, K2, Z0
	VMOVUPD Z0, (SI)(BX*8)
	ADDQ $8, BX
	JMP loop

done:
	MOVQ BX, ret+16(FP)
	VZEROUPPER
	RET
