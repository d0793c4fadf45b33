package cost

import (
	"fmt"
	"math"
)

// sequenceFamily holds recurrent networks and Fourier transforms, one kernel each (cuDNN's RNN, cuFFT). A recurrent
// layer does per time step, batch row and direction 2·g·H·(I+H) operations for its gate products (g gates: LSTM 4,
// GRU 3, simple RNN 1; I the layer's input size, H the hidden size) and 10·H for the gate activations and the state
// update; layers after the first take the previous layer's H·directions as input. A complex FFT of n points does
// 5·n·log2 n operations (the radix-2 count), a real one half as many, per transform over the axes.
var sequenceFamily = family{
	name: "sequence",
	doc:  "recurrent layers (gate products per step) and FFTs (5·n·log2 n, real ones half)",
	ops: map[string]formula{
		"pd_op.rnn":         rnn,
		"pd_op.lstm":        legacyRNN(4),
		"pd_op.gru":         legacyRNN(3),
		"pd_op.fft_c2c":     fft(5),
		"pd_op.fft_r2c":     fft(2.5),
		"pd_op.fft_c2r":     fft(2.5),
		"pd_op.stft":        stft,
		"pd_op.frame":       copyAll,
		"pd_op.overlap_add": copyAll,
	},
}

// rnn: x [T, B, I] (time-major), mode LSTM, GRU, RNN_TANH or RNN_RELU, num_layers, hidden_size, is_bidirec.
func rnn(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	if x.rank() != 3 {
		return Work{}, fmt.Errorf("rnn wants a rank-3 input")
	}
	gates := map[string]int64{"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[v.str("mode")]
	if gates == 0 {
		return Work{}, fmt.Errorf("unknown rnn mode %q", v.str("mode"))
	}
	h := v.int("hidden_size", 0)
	if h <= 0 {
		return Work{}, fmt.Errorf("hidden_size %d", h)
	}
	dirs := int64(1)
	if v.bool("is_bidirec") {
		dirs = 2
	}
	steps := x.dims[0] * x.dims[1]
	in := x.dims[2]
	flops := int64(0)
	for l := int64(0); l < max(v.int("num_layers", 1), 1); l++ {
		flops += dirs * steps * (2*gates*h*(in+h) + 10*h)
		in = h * dirs
	}
	return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: x.dt}, nil
}

// legacyRNN: the LoD lstm and gru ops, whose input is already projected to [T, g·D] and weight is [D, g·D].
func legacyRNN(gates int64) formula {
	return func(v *opView) (Work, error) {
		in, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		d := in.dim(-1) / gates
		t := in.elems() / max(in.dim(-1), 1)
		return Work{FLOPs: t * (2*gates*d*d + 10*d), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Matrix, DType: in.dt}, nil
	}
}

// fft returns the formula of an FFT doing c·n·log2 n operations per transform of n points over its axes (the
// larger of the input's and the output's size along each: a real transform's complex side is half as long).
func fft(c float64) formula {
	return func(v *opView) (Work, error) {
		x, err := v.mustIn(0)
		if err != nil {
			return Work{}, err
		}
		out, err := v.mustOut(0)
		if err != nil {
			return Work{}, err
		}
		axes, _ := v.ints("axes")
		if len(axes) == 0 || x.rank() != out.rank() {
			return Work{}, fmt.Errorf("fft over axes %v of rank %d to rank %d", axes, x.rank(), out.rank())
		}
		n := int64(1)
		for _, a := range axes {
			if a < 0 {
				a += int64(x.rank())
			}
			if a < 0 || int(a) >= x.rank() {
				return Work{}, fmt.Errorf("fft axis %d out of range", a)
			}
			n *= max(x.dims[a], out.dims[a])
		}
		batch := max(x.elems(), out.elems()) / max(n, 1)
		flops := int64(c * float64(batch) * float64(n) * math.Log2(float64(max(n, 2))))
		return Work{FLOPs: flops, Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
	}
}

// stft: frames of n_fft points, windowed (1 per point) and transformed (a real FFT each).
func stft(v *opView) (Work, error) {
	x, err := v.mustIn(0)
	if err != nil {
		return Work{}, err
	}
	n := v.int("n_fft", 0)
	hop := v.int("hop_length", 0)
	if n <= 0 || hop <= 0 {
		return Work{}, fmt.Errorf("n_fft %d, hop_length %d", n, hop)
	}
	frames := max(x.dim(-1)-n, 0)/hop + 1
	batch := x.elems() / max(x.dim(-1), 1)
	per := float64(n) + 2.5*float64(n)*math.Log2(float64(max(n, 2)))
	return Work{FLOPs: int64(per * float64(frames*batch)), Read: v.readAll(), Written: v.writeAll(), Kernels: 1, Unit: Vector, DType: x.dt}, nil
}
