//go:build amd64 && !purego

#include "textflag.h"

// func roundHalvesF16C(xs *float32, n int)
// Rounds n float32 values at xs to float16 precision in place: VCVTPS2PH with rounding to nearest even (imm 0),
// then back with VCVTPH2PS, eight at a time, the rest one by one.
TEXT ·roundHalvesF16C(SB), NOSPLIT, $0-16
	MOVQ xs+0(FP), SI
	MOVQ n+8(FP), CX

eight:
	CMPQ CX, $8
	JLT  one
	VMOVUPS (SI), Y0
	VCVTPS2PH $0, Y0, X1
	VCVTPH2PS X1, Y0
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  eight

one:
	TESTQ CX, CX
	JEQ   done
	VMOVSS (SI), X0
	VCVTPS2PH $0, X0, X1
	VCVTPH2PS X1, X0
	VMOVSS X0, (SI)
	ADDQ $4, SI
	DECQ CX
	JMP  one

done:
	VZEROUPPER
	RET
