package pirjson

import (
	"math"
	"strconv"
)

// appendFloat appends a finite float64 the way nlohmann::json dumps it (its to_chars/format_buffer): the shortest
// digits d (k of them) with decimal point position n (v = 0.d × 10ⁿ), laid out as
//
//	0                 0.0 or -0.0
//	k ≤ n ≤ 15        digits, n−k zeros, ".0"          1.0, 100.0
//	0 < n ≤ 15        dd.ddd                            2.5
//	−4 < n ≤ 0        "0.", −n zeros, digits            0.5, 0.0001
//	otherwise         d.ddde±XX (de±XX if k = 1)        1e-05, 1e+16
//
// with an exponent of at least two digits and always a sign. Non-finite values must be handled by the caller.
func appendFloat(dst []byte, v float64) []byte {
	if v == 0 {
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, 64) // d.ddde±XX
	var digits [24]byte
	k := 0
	i := 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[k] = e[i]
			k++
		}
	}
	exp := 0
	neg := e[i+1] == '-'
	for _, c := range e[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if neg {
		exp = -exp
	}
	n := exp + 1
	d := digits[:k]
	switch {
	case k <= n && n <= 15:
		dst = append(dst, d...)
		for j := k; j < n; j++ {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	case 0 < n && n <= 15:
		dst = append(dst, d[:n]...)
		dst = append(dst, '.')
		return append(dst, d[n:]...)
	case -4 < n && n <= 0:
		dst = append(dst, '0', '.')
		for j := n; j < 0; j++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	dst = append(dst, d[0])
	if k > 1 {
		dst = append(dst, '.')
		dst = append(dst, d[1:]...)
	}
	dst = append(dst, 'e')
	x := n - 1
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	} else {
		dst = append(dst, '+')
	}
	if x < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(x), 10)
}

// appendString appends s as a JSON string the way nlohmann::json dumps it with its defaults: '"' and '\' escaped,
// \b \f \n \r \t for those control characters, \u00xx (lower-case hex) for the other control characters, and
// everything else (including '/', DEL and non-ASCII UTF-8) as is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"
