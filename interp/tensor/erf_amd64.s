//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func erfLanesAVX512(dst, src unsafe.Pointer, n int, gelu bool) int
//
// math.Erf of eight float64 at a time (gelu false: src = dst, in place), or gelu of eight float32 (gelu true:
// 0.5·v·(1 + erf(v/√2)) with v the float64 of an element of src, rounded to float32 into dst), by the operations
// of the standard library's erf (math/erf.go, unfused, as the compiler emits them below GOAMD64=v3) on |x|, every
// range evaluated under a lane mask and skipped when no lane is in it:
//   |x| < 0.84375         x + x·(pp(z)/qq(z)), z = x²; x + efx·x below 2⁻²⁸, 0.125·(8x + efx8·x) below 2⁻¹⁰¹⁵
//   0.84375 ≤ |x| < 1.25  erx + pa(s)/qa(s), s = |x| − 1
//   1.25 ≤ |x| < 6        1 − exp(−z·z − 0.5625)·exp((z−x)(z+x) + R/S)/x, z = x with its lower 32 bits cleared,
//                         s = 1/x²; R, S the ra/sa polynomials below 1/0.35 and rb/sb above (rb, sb taken as
//                         ra, sa's degree with a leading zero coefficient, which changes no operation's result);
//                         the exponentials by exp_amd64.s's steps (math.Exp's FMA path), whose special cases
//                         these arguments (−37 < a < 1) never reach
//   |x| ≥ 6 (and ±Inf)    1
// and the sign of x put back on the result (the standard library negates each branch's value, and a rounded
// difference negates with its operands). The three ranges' quotients (pp/qq, pa/qa, R/S) share one division. A
// vector holding a NaN ends the run before it (the caller computes it in Go). It returns how many elements it did
// (a multiple of 8).

#define ABS erfdata<>+0(SB)
#define SIGN erfdata<>+8(SB)
#define HI erfdata<>+16(SB)
#define ONE erfdata<>+24(SB)
#define B1 erfdata<>+32(SB)
#define B2 erfdata<>+40(SB)
#define B3 erfdata<>+48(SB)
#define B4 erfdata<>+56(SB)
#define SMALL erfdata<>+64(SB)
#define VTINY erfdata<>+72(SB)
#define EIGHT erfdata<>+80(SB)
#define EIGHTH erfdata<>+88(SB)
#define C5625 erfdata<>+96(SB)
#define EFX erfdata<>+104(SB)
#define EFX8 erfdata<>+112(SB)
#define ERX erfdata<>+120(SB)
#define ZERO erfdata<>+128(SB)
#define PP0 erfdata<>+136(SB)
#define PP1 erfdata<>+144(SB)
#define PP2 erfdata<>+152(SB)
#define PP3 erfdata<>+160(SB)
#define PP4 erfdata<>+168(SB)
#define QQ1 erfdata<>+176(SB)
#define QQ2 erfdata<>+184(SB)
#define QQ3 erfdata<>+192(SB)
#define QQ4 erfdata<>+200(SB)
#define QQ5 erfdata<>+208(SB)
#define PA0 erfdata<>+216(SB)
#define PA1 erfdata<>+224(SB)
#define PA2 erfdata<>+232(SB)
#define PA3 erfdata<>+240(SB)
#define PA4 erfdata<>+248(SB)
#define PA5 erfdata<>+256(SB)
#define PA6 erfdata<>+264(SB)
#define QA1 erfdata<>+272(SB)
#define QA2 erfdata<>+280(SB)
#define QA3 erfdata<>+288(SB)
#define QA4 erfdata<>+296(SB)
#define QA5 erfdata<>+304(SB)
#define QA6 erfdata<>+312(SB)
#define RA0 erfdata<>+320(SB)
#define RA1 erfdata<>+328(SB)
#define RA2 erfdata<>+336(SB)
#define RA3 erfdata<>+344(SB)
#define RA4 erfdata<>+352(SB)
#define RA5 erfdata<>+360(SB)
#define RA6 erfdata<>+368(SB)
#define RA7 erfdata<>+376(SB)
#define SA1 erfdata<>+384(SB)
#define SA2 erfdata<>+392(SB)
#define SA3 erfdata<>+400(SB)
#define SA4 erfdata<>+408(SB)
#define SA5 erfdata<>+416(SB)
#define SA6 erfdata<>+424(SB)
#define SA7 erfdata<>+432(SB)
#define SA8 erfdata<>+440(SB)
#define RB0 erfdata<>+448(SB)
#define RB1 erfdata<>+456(SB)
#define RB2 erfdata<>+464(SB)
#define RB3 erfdata<>+472(SB)
#define RB4 erfdata<>+480(SB)
#define RB5 erfdata<>+488(SB)
#define RB6 erfdata<>+496(SB)
#define SB1 erfdata<>+504(SB)
#define SB2 erfdata<>+512(SB)
#define SB3 erfdata<>+520(SB)
#define SB4 erfdata<>+528(SB)
#define SB5 erfdata<>+536(SB)
#define SB6 erfdata<>+544(SB)
#define SB7 erfdata<>+552(SB)
#define LOG2E erfdata<>+560(SB)
#define LN2U erfdata<>+568(SB)
#define LN2L erfdata<>+576(SB)
#define E16 erfdata<>+584(SB)
#define F8 erfdata<>+592(SB)
#define F7 erfdata<>+600(SB)
#define F6 erfdata<>+608(SB)
#define F5 erfdata<>+616(SB)
#define F4 erfdata<>+624(SB)
#define F3 erfdata<>+632(SB)
#define HALF erfdata<>+640(SB)
#define TWO erfdata<>+648(SB)
#define BIAS erfdata<>+656(SB)

DATA erfdata<>+0(SB)/8, $0x7FFFFFFFFFFFFFFF // sign bit clear
DATA erfdata<>+8(SB)/8, $0x8000000000000000 // sign bit
DATA erfdata<>+16(SB)/8, $0xFFFFFFFF00000000 // the upper half: erf's pseudo-single z
DATA erfdata<>+24(SB)/8, $0x3FF0000000000000 // 1
DATA erfdata<>+32(SB)/8, $0x3FEB000000000000 // 0.84375
DATA erfdata<>+40(SB)/8, $0x3FF4000000000000 // 1.25
DATA erfdata<>+48(SB)/8, $0x4006DB6DB6DB6DB7 // 2.857142857142857
DATA erfdata<>+56(SB)/8, $0x4018000000000000 // 6
DATA erfdata<>+64(SB)/8, $0x3E30000000000000 // 3.725290298461914e-09
DATA erfdata<>+72(SB)/8, $0x0080000000000000 // 2.848094538889218e-306
DATA erfdata<>+80(SB)/8, $0x4020000000000000 // 8
DATA erfdata<>+88(SB)/8, $0x3FC0000000000000 // 0.125
DATA erfdata<>+96(SB)/8, $0x3FE2000000000000 // 0.5625
DATA erfdata<>+104(SB)/8, $0x3FC06EBA8214DB69 // 0.1283791670955126
DATA erfdata<>+112(SB)/8, $0x3FF06EBA8214DB69 // 1.0270333367641007
DATA erfdata<>+120(SB)/8, $0x3FEB0AC160000000 // 0.8450629115104675
DATA erfdata<>+128(SB)/8, $0x0000000000000000 // 0
DATA erfdata<>+136(SB)/8, $0x3FC06EBA8214DB68 // 0.12837916709551256
DATA erfdata<>+144(SB)/8, $0xBFD4CD7D691CB913 // -0.3250421072470015
DATA erfdata<>+152(SB)/8, $0xBF9D2A51DBD7194F // -0.02848174957559851
DATA erfdata<>+160(SB)/8, $0xBF77A291236668E4 // -0.005770270296489442
DATA erfdata<>+168(SB)/8, $0xBEF8EAD6120016AC // -2.3763016656650163e-05
DATA erfdata<>+176(SB)/8, $0x3FD97779CDDADC09 // 0.39791722395915535
DATA erfdata<>+184(SB)/8, $0x3FB0A54C5536CEBA // 0.0650222499887673
DATA erfdata<>+192(SB)/8, $0x3F74D022C4D36B0F // 0.005081306281875766
DATA erfdata<>+200(SB)/8, $0x3F215DC9221C1A10 // 0.00013249473800432164
DATA erfdata<>+208(SB)/8, $0xBED09C4342A26120 // -3.960228278775368e-06
DATA erfdata<>+216(SB)/8, $0xBF6359B8BEF77538 // -0.0023621185607526594
DATA erfdata<>+224(SB)/8, $0x3FDA8D00AD92B34D // 0.41485611868374833
DATA erfdata<>+232(SB)/8, $0xBFD7D240FBB8C3F1 // -0.3722078760357013
DATA erfdata<>+240(SB)/8, $0x3FD45FCA805120E4 // 0.31834661990116175
DATA erfdata<>+248(SB)/8, $0xBFBC63983D3E28EC // -0.11089469428239668
DATA erfdata<>+256(SB)/8, $0x3FA22A36599795EB // 0.035478304325618236
DATA erfdata<>+264(SB)/8, $0xBF61BF380A96073F // -0.002166375594868791
DATA erfdata<>+272(SB)/8, $0x3FBB3E6618EEE323 // 0.10642088040084423
DATA erfdata<>+280(SB)/8, $0x3FE14AF092EB6F33 // 0.540397917702171
DATA erfdata<>+288(SB)/8, $0x3FB2635CD99FE9A7 // 0.07182865441419627
DATA erfdata<>+296(SB)/8, $0x3FC02660E763351F // 0.12617121980876164
DATA erfdata<>+304(SB)/8, $0x3F8BEDC26B51DD1C // 0.01363708391202905
DATA erfdata<>+312(SB)/8, $0x3F888B545735151D // 0.011984499846799107
DATA erfdata<>+320(SB)/8, $0xBF843412600D6435 // -0.009864944034847148
DATA erfdata<>+328(SB)/8, $0xBFE63416E4BA7360 // -0.6938585727071818
DATA erfdata<>+336(SB)/8, $0xC0251E0441B0E726 // -10.558626225323291
DATA erfdata<>+344(SB)/8, $0xC04F300AE4CBA38D // -62.375332450326006
DATA erfdata<>+352(SB)/8, $0xC0644CB184282266 // -162.39666946257347
DATA erfdata<>+360(SB)/8, $0xC067135CEBCCABB2 // -184.60509290671104
DATA erfdata<>+368(SB)/8, $0xC054526557E4D2F2 // -81.2874355063066
DATA erfdata<>+376(SB)/8, $0xC023A0EFC69AC25C // -9.814329344169145
DATA erfdata<>+384(SB)/8, $0x4033A6B9BD707687 // 19.651271667439257
DATA erfdata<>+392(SB)/8, $0x4061350C526AE721 // 137.65775414351904
DATA erfdata<>+400(SB)/8, $0x407B290DD58A1A71 // 434.56587747522923
DATA erfdata<>+408(SB)/8, $0x40842B1921EC2868 // 645.3872717332679
DATA erfdata<>+416(SB)/8, $0x407AD02157700314 // 429.00814002756783
DATA erfdata<>+424(SB)/8, $0x405B28A3EE48AE2C // 108.63500554177944
DATA erfdata<>+432(SB)/8, $0x401A47EF8E484A93 // 6.570249770319282
DATA erfdata<>+440(SB)/8, $0xBFAEEFF2EE749A62 // -0.0604244152148581
DATA erfdata<>+448(SB)/8, $0xBF84341239E86F4A // -0.0098649429247001
DATA erfdata<>+456(SB)/8, $0xBFE993BA70C285DE // -0.799283237680523
DATA erfdata<>+464(SB)/8, $0xC031C209555F995A // -17.757954917754752
DATA erfdata<>+472(SB)/8, $0xC064145D43C5ED98 // -160.63638485582192
DATA erfdata<>+480(SB)/8, $0xC083EC881375F228 // -637.5664433683896
DATA erfdata<>+488(SB)/8, $0xC09004616A2E5992 // -1025.0951316110772
DATA erfdata<>+496(SB)/8, $0xC07E384E9BDC383F // -483.5191916086514
DATA erfdata<>+504(SB)/8, $0x403E568B261D5190 // 30.33806074348246
DATA erfdata<>+512(SB)/8, $0x40745CAE221B9F0A // 325.7925129965739
DATA erfdata<>+520(SB)/8, $0x409802EB189D5118 // 1536.729586084437
DATA erfdata<>+528(SB)/8, $0x40A8FFB7688C246A // 3199.8582195085955
DATA erfdata<>+536(SB)/8, $0x40A3F219CEDF3BE6 // 2553.0504064331644
DATA erfdata<>+544(SB)/8, $0x407DA874E79FE763 // 474.52854120695537
DATA erfdata<>+552(SB)/8, $0xC03670E242712D62 // -22.44095244658582
DATA erfdata<>+560(SB)/8, $0x3FF71547652B82FE // log2 e
DATA erfdata<>+568(SB)/8, $0x3FE62E42FEFA3000 // ln 2, upper part
DATA erfdata<>+576(SB)/8, $0x3D53DE6AF278ECE6 // ln 2, lower part
DATA erfdata<>+584(SB)/8, $0x3FB0000000000000 // 0.0625
DATA erfdata<>+592(SB)/8, $0x3EFA01A01A01A01A // 1/8!
DATA erfdata<>+600(SB)/8, $0x3F2A01A01A01A01A // 1/7!
DATA erfdata<>+608(SB)/8, $0x3F56C16C16C16C17 // 1/6!
DATA erfdata<>+616(SB)/8, $0x3F81111111111111 // 1/5!
DATA erfdata<>+624(SB)/8, $0x3FA5555555555555 // 1/4!
DATA erfdata<>+632(SB)/8, $0x3FC5555555555555 // 1/3!
DATA erfdata<>+640(SB)/8, $0x3FE0000000000000 // 0.5
DATA erfdata<>+648(SB)/8, $0x4000000000000000 // 2
DATA erfdata<>+656(SB)/8, $0x00000000000003FF // the exponent bias (an integer)
GLOBL erfdata<>(SB), RODATA|NOPTR, $664

DATA erfsqrt2<>+0(SB)/8, $0x3FF6A09E667F3BCD // √2
GLOBL erfsqrt2<>(SB), RODATA|NOPTR, $8

// HORNER is one step of a polynomial in S by Horner's rule: ACC = (ACC + C)·S.
#define HORNER(ACC, S, C) \
	VADDPD.BCST C, ACC, ACC; \
	VMULPD S, ACC, ACC

// SELECT is HORNER with the coefficient CA in the lanes of K4 and CB in those of K5, into ACC by way of T.
#define SELECT(ACC, T, S, CA, CB) \
	VADDPD.BCST CA, ACC, T; \
	VADDPD.BCST CB, ACC, K5, T; \
	VMULPD S, T, ACC

// EXP sets X to math.Exp(X) (exp_amd64.s's steps) for arguments whose result is a normal number; KF, KIZ (with
// KIY, its lower half) and P are scratch.
#define EXP(X, KF, KIY, KIZ, P) \
	VMULPD.BCST LOG2E, X, KF; \
	VCVTPD2DQ KF, KIY; \
	VCVTDQ2PD KIY, KF; \
	VFNMADD231PD.BCST LN2U, KF, X; \
	VFNMADD231PD.BCST LN2L, KF, X; \
	VMULPD.BCST E16, X, X; \
	VBROADCASTSD F8, P; \
	VFMADD213PD.BCST F7, X, P; \
	VFMADD213PD.BCST F6, X, P; \
	VFMADD213PD.BCST F5, X, P; \
	VFMADD213PD.BCST F4, X, P; \
	VFMADD213PD.BCST F3, X, P; \
	VFMADD213PD.BCST HALF, X, P; \
	VFMADD213PD.BCST ONE, X, P; \
	VMULPD P, X, X; \
	VADDPD.BCST TWO, X, P; \
	VMULPD P, X, X; \
	VADDPD.BCST TWO, X, P; \
	VMULPD P, X, X; \
	VADDPD.BCST TWO, X, P; \
	VMULPD P, X, X; \
	VADDPD.BCST TWO, X, P; \
	VFMADD213PD.BCST ONE, P, X; \
	VPMOVSXDQ KIY, KIZ; \
	VPADDQ.BCST BIAS, KIZ, KIZ; \
	VPSLLQ $52, KIZ, KIZ; \
	VMULPD KIZ, X, X

TEXT ·erfLanesAVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVBQZX gelu+24(FP), R8
	XORQ BX, BX
	VBROADCASTSD ONE, Z31

loop:
	LEAQ 8(BX), AX
	CMPQ AX, CX
	JGT done
	TESTQ R8, R8
	JNZ loadgelu
	VMOVUPD (SI)(BX*8), Z0
	JMP loaded

loadgelu:
	VCVTPS2PD (SI)(BX*4), Z30       // v
	VDIVPD.BCST erfsqrt2<>(SB), Z30, Z0 // x = v/√2

loaded:
	VCMPPD $3, Z0, Z0, K1           // NaN
	KORTESTW K1, K1
	JNE done
	VPANDQ.BCST ABS, Z0, Z1         // a = |x|
	VPANDQ.BCST SIGN, Z0, Z2        // the sign of x
	VMOVAPD Z31, Z3                 // the result, 1 where a ≥ 6
	VCMPPD.BCST $1, B1, Z1, K1      // K1: a < 0.84375
	VCMPPD.BCST $13, B1, Z1, K2
	VCMPPD.BCST $1, B2, Z1, K2, K2  // K2: 0.84375 ≤ a < 1.25
	VCMPPD.BCST $13, B2, Z1, K3
	VCMPPD.BCST $1, B4, Z1, K3, K3  // K3: 1.25 ≤ a < 6
	VCMPPD.BCST $1, B3, Z1, K3, K4  // K4: in K3, a < 1/0.35
	VCMPPD.BCST $13, B3, Z1, K3, K5 // K5: in K3, a ≥ 1/0.35

	KORTESTW K1, K1
	JEQ mid
	VMULPD Z1, Z1, Z4               // z = a²
	VMULPD.BCST PP4, Z4, Z5
	HORNER(Z5, Z4, PP3)
	HORNER(Z5, Z4, PP2)
	HORNER(Z5, Z4, PP1)
	VADDPD.BCST PP0, Z5, Z5         // r
	VMULPD.BCST QQ5, Z4, Z6
	HORNER(Z6, Z4, QQ4)
	HORNER(Z6, Z4, QQ3)
	HORNER(Z6, Z4, QQ2)
	HORNER(Z6, Z4, QQ1)
	VADDPD Z31, Z6, Z6              // s

mid:
	KORTESTW K2, K2
	JEQ tail
	VSUBPD Z31, Z1, Z4              // s = a − 1
	VMULPD.BCST PA6, Z4, Z7
	HORNER(Z7, Z4, PA5)
	HORNER(Z7, Z4, PA4)
	HORNER(Z7, Z4, PA3)
	HORNER(Z7, Z4, PA2)
	HORNER(Z7, Z4, PA1)
	VADDPD.BCST PA0, Z7, K2, Z5     // P
	VMULPD.BCST QA6, Z4, Z8
	HORNER(Z8, Z4, QA5)
	HORNER(Z8, Z4, QA4)
	HORNER(Z8, Z4, QA3)
	HORNER(Z8, Z4, QA2)
	HORNER(Z8, Z4, QA1)
	VADDPD Z31, Z8, K2, Z6          // Q

tail:
	KORTESTW K3, K3
	JEQ quotient
	VMULPD Z1, Z1, Z4
	VDIVPD Z4, Z31, Z4              // s = 1/a²
	VMULPD.BCST.Z RA7, Z4, K4, Z7   // rb's lanes start at 0: rb7 = 0
	SELECT(Z7, Z9, Z4, RA6, RB6)
	SELECT(Z7, Z9, Z4, RA5, RB5)
	SELECT(Z7, Z9, Z4, RA4, RB4)
	SELECT(Z7, Z9, Z4, RA3, RB3)
	SELECT(Z7, Z9, Z4, RA2, RB2)
	SELECT(Z7, Z9, Z4, RA1, RB1)
	VADDPD.BCST RA0, Z7, K3, Z5
	VADDPD.BCST RB0, Z7, K5, Z5     // R
	VMULPD.BCST.Z SA8, Z4, K4, Z8   // sb8 = 0
	SELECT(Z8, Z9, Z4, SA7, SB7)
	SELECT(Z8, Z9, Z4, SA6, SB6)
	SELECT(Z8, Z9, Z4, SA5, SB5)
	SELECT(Z8, Z9, Z4, SA4, SB4)
	SELECT(Z8, Z9, Z4, SA3, SB3)
	SELECT(Z8, Z9, Z4, SA2, SB2)
	SELECT(Z8, Z9, Z4, SA1, SB1)
	VADDPD Z31, Z8, K3, Z6          // S

quotient:
	VDIVPD Z6, Z5, Z5               // r/s, P/Q and R/S, one division for the three ranges' lanes
	KORTESTW K1, K1
	JEQ mid2
	VMULPD Z5, Z1, Z7
	VADDPD Z1, Z7, Z7               // a + a·(r/s)
	VCMPPD.BCST $1, SMALL, Z1, K6
	KORTESTW K6, K6
	JEQ small
	VMULPD.BCST EFX, Z1, Z8
	VADDPD Z1, Z8, K6, Z7           // a + efx·a below 2⁻²⁸
	VCMPPD.BCST $1, VTINY, Z1, K6
	KORTESTW K6, K6
	JEQ small
	VMULPD.BCST EIGHT, Z1, Z8
	VMULPD.BCST EFX8, Z1, Z9
	VADDPD Z9, Z8, Z8
	VMULPD.BCST EIGHTH, Z8, K6, Z7  // 0.125·(8a + efx8·a) below VeryTiny

small:
	VMOVAPD Z7, K1, Z3

mid2:
	VADDPD.BCST ERX, Z5, K2, Z3     // erx + P/Q
	KORTESTW K3, K3
	JEQ store
	VPANDQ.BCST HI, Z1, Z7          // z
	VMULPD Z7, Z7, Z8
	VPXORQ.BCST SIGN, Z8, Z8        // −z·z
	VSUBPD.BCST C5625, Z8, Z8       // −z·z − 0.5625
	VSUBPD Z1, Z7, Z9               // z − a
	VADDPD Z1, Z7, Z10              // z + a
	VMULPD Z10, Z9, Z9
	VADDPD Z5, Z9, Z9               // (z − a)(z + a) + R/S
	EXP(Z8, Z10, Y11, Z11, Z12)
	EXP(Z9, Z13, Y14, Z14, Z15)
	VMULPD Z9, Z8, Z8               // r
	VDIVPD Z1, Z8, Z8
	VSUBPD Z8, Z31, K3, Z3          // 1 − r/a

store:
	VPXORQ Z2, Z3, Z3
	TESTQ R8, R8
	JNZ storegelu
	VMOVUPD Z3, (DI)(BX*8)
	ADDQ $8, BX
	JMP loop

storegelu:
	VMULPD.BCST HALF, Z30, Z4       // 0.5·v
	VADDPD Z31, Z3, Z3              // 1 + erf(x)
	VMULPD Z3, Z4, Z4
	VCVTPD2PS Z4, Y4
	VMOVUPS Y4, (DI)(BX*4)
	ADDQ $8, BX
	JMP loop

done:
	MOVQ BX, ret+32(FP)
	VZEROUPPER
	RET
