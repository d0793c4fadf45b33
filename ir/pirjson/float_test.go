package pirjson

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppendFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-1, "-1.0"},
		{2, "2.0"},
		{100, "100.0"},
		{2.5, "2.5"},
		{0.5, "0.5"},
		{0.0001, "0.0001"},
		{0.001, "0.001"},
		{1e-05, "1e-05"},
		{1.5e-05, "1.5e-05"},
		{1e+16, "1e+16"},
		{1e15, "1e+15"},
		{123456789012345, "123456789012345.0"},
		{1234567890123456, "1.234567890123456e+15"},
		{999999999999999, "999999999999999.0"},
		{9.999999747378752e-06, "9.999999747378752e-06"},
		{float64(float32(1e-05)), "9.999999747378752e-06"},
		{0.8999999761581421, "0.8999999761581421"},
		{float64(float32(0.9)), "0.8999999761581421"},
		{float64(float32(1.0 / 6)), "0.1666666716337204"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{-1.7976931348623157e308, "-1.7976931348623157e+308"},
		{1e100, "1e+100"},
		{1.25e-100, "1.25e-100"},
		{0.1, "0.1"},
		{123.456, "123.456"},
		{-0.75, "-0.75"},
		{1e21, "1e+21"},
		{12e20, "1.2e+21"},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatFloat(tt.in, 'g', -1, 64), func(t *testing.T) {
			got := string(appendFloat(nil, tt.in))
			assert.Equal(t, tt.want, got)
			back, err := strconv.ParseFloat(got, 64)
			assert.NoError(t, err)
			assert.Equal(t, math.Float64bits(tt.in), math.Float64bits(back), "round trip")
		})
	}
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"EXPLICIT", `"EXPLICIT"`},
		{"/PPHGNetV2/StemBlock/ConvBNAct/Conv2D/", `"/PPHGNetV2/StemBlock/ConvBNAct/Conv2D/"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\x7f", "\"\x7f\""},
		{"héllo 世界", `"héllo 世界"`},
		{"<&>", `"<&>"`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, string(appendString(nil, tt.in)))
		})
	}
}
