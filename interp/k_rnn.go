package interp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/pirdrr/drr/interp/tensor"
	"github.com/pirdrr/drr/ir"
)

// kRNN is Paddle's rnn op (cuDNN's layout), time-major: x [T, N, input], pre_state a vector of [L·D, N, hidden]
// tensors (h0, and c0 for LSTM), weight_list every layer's and direction's w_ih [G·hidden, in] and w_hh
// [G·hidden, hidden] first, then their b_ih and b_hh, in the same order. Cells, with gates split in this order:
//
//	LSTM (i, f, g, o):  c' = σ(f)·c + σ(i)·tanh(g), h' = σ(o)·tanh(c')
//	GRU (r, z, c):      n = tanh(x_c + σ(r)·h_c), h' = (h − n)·σ(z) + n   (h_c includes b_hh)
//	RNN_TANH/RNN_RELU:  h' = act(x·w_ihᵀ + b_ih + h·w_hhᵀ + b_hh)
//
// Bidirectional layers concatenate the forward and backward outputs. With sequence_length, steps at or beyond a
// sequence's length output 0 and leave its state unchanged (the backward direction starts at the last valid
// step). In training (is_test false) with dropout_prob > 0, the output of every layer but the last goes through
// upscale_in_train dropout drawn from the op's random stream. Results: (out [T, N, D·hidden], dropout_state_out,
// state: the final h (and c), reserve); dropout_state_out is the dropout state operand and reserve is not computed.
func kRNN[T tensor.Float](c *call[T]) ([]*value[T], error) {
	x, err := c.in(0)
	if err != nil {
		return nil, err
	}
	states, err := c.vector(1)
	if err != nil {
		return nil, err
	}
	weights, err := c.vector(2)
	if err != nil {
		return nil, err
	}
	seqLen, err := c.optIn(3)
	if err != nil {
		return nil, err
	}
	mode := c.attrString("mode", "RNN_TANH")
	gates := map[string]int{"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[mode]
	if gates == 0 {
		return nil, unsupported("rnn mode %q", mode)
	}
	layers := c.attrInt("num_layers", 1)
	dirs := 1
	if c.attrBool("is_bidirec", false) {
		dirs = 2
	}
	hidden := c.attrInt("hidden_size", 100)
	if len(x.Shape) != 3 {
		return nil, fmt.Errorf("rnn input must be [T, N, input], is %v", x.Shape)
	}
	steps, batch := x.Shape[0], x.Shape[1]
	nStates := 1
	if mode == "LSTM" {
		nStates = 2
	}
	if len(states) != nStates {
		return nil, fmt.Errorf("rnn %s needs %d initial states, has %d", mode, nStates, len(states))
	}
	for _, s := range states {
		if !sameInts(s.shape, []int{layers * dirs, batch, hidden}) {
			return nil, fmt.Errorf("initial state %v must be [%d, %d, %d]", s.shape, layers*dirs, batch, hidden)
		}
	}
	if len(weights) != 4*layers*dirs {
		return nil, fmt.Errorf("weight_list has %d tensors, want %d", len(weights), 4*layers*dirs)
	}
	lengths := make([]int, batch)
	for i := range lengths {
		lengths[i] = steps
		if seqLen != nil {
			if len(seqLen.Data) != batch {
				return nil, fmt.Errorf("sequence_length %v for a batch of %d", seqLen.Shape, batch)
			}
			lengths[i] = min(int(seqLen.Data[i]), steps)
		}
	}
	p := c.attrFloat("dropout_prob", 0)
	train := !c.attrBool("is_test", false) && p > 0
	input := x.Data
	inSize := x.Shape[2]
	finals := make([][]T, nStates)
	for k := range finals {
		finals[k] = make([]T, layers*dirs*batch*hidden)
	}
	for l := range layers {
		out := make([]T, steps*batch*dirs*hidden)
		for d := range dirs {
			idx := l*dirs + d
			wih, whh := weights[2*idx].tensor(), weights[2*idx+1].tensor()
			bih, bhh := weights[2*layers*dirs+2*idx].tensor(), weights[2*layers*dirs+2*idx+1].tensor()
			g := gates * hidden
			if !sameInts(wih.Shape, []int{g, inSize}) || !sameInts(whh.Shape, []int{g, hidden}) || len(bih.Data) != g || len(bhh.Data) != g {
				return nil, fmt.Errorf("layer %d direction %d: weights %v, %v and biases %v, %v do not fit %s with hidden %d and input %d",
					l, d, wih.Shape, whh.Shape, bih.Shape, bhh.Shape, mode, hidden, inSize)
			}
			h := make([]float64, batch*hidden)
			cs := make([]float64, batch*hidden)
			for i := range h {
				h[i] = float64(states[0].buf.data[idx*batch*hidden+i])
				if mode == "LSTM" {
					cs[i] = float64(states[1].buf.data[idx*batch*hidden+i])
				}
			}
			for s := range steps {
				for b := range batch {
					t := s
					if d == 1 {
						t = lengths[b] - 1 - s
					}
					if t < 0 || s >= lengths[b] {
						continue // past the sequence: output 0, state kept
					}
					xi := input[(t*batch+b)*inSize : (t*batch+b+1)*inSize]
					hb := h[b*hidden : (b+1)*hidden]
					gx := make([]float64, g)
					gh := make([]float64, g)
					for r := range g {
						sx, sh := float64(bih.Data[r]), float64(bhh.Data[r])
						for k, v := range xi {
							sx += float64(wih.Data[r*inSize+k]) * float64(v)
						}
						for k, v := range hb {
							sh += float64(whh.Data[r*hidden+k]) * v
						}
						gx[r], gh[r] = sx, sh
					}
					cb := cs[b*hidden : (b+1)*hidden]
					nh := make([]float64, hidden)
					for k := range hidden {
						switch mode {
						case "LSTM":
							i := sigmoid64(gx[k] + gh[k])
							f := sigmoid64(gx[hidden+k] + gh[hidden+k])
							gg := math.Tanh(gx[2*hidden+k] + gh[2*hidden+k])
							o := sigmoid64(gx[3*hidden+k] + gh[3*hidden+k])
							cb[k] = f*cb[k] + i*gg
							nh[k] = o * math.Tanh(cb[k])
						case "GRU":
							r := sigmoid64(gx[k] + gh[k])
							z := sigmoid64(gx[hidden+k] + gh[hidden+k])
							n := math.Tanh(gx[2*hidden+k] + r*gh[2*hidden+k])
							nh[k] = (hb[k]-n)*z + n
						case "RNN_TANH":
							nh[k] = math.Tanh(gx[k] + gh[k])
						default:
							nh[k] = max(gx[k]+gh[k], 0)
						}
					}
					copy(hb, nh)
					o := out[((t*batch+b)*dirs+d)*hidden : ((t*batch+b)*dirs+d+1)*hidden]
					for k, v := range nh {
						o[k] = T(v)
					}
				}
			}
			for i := range h {
				finals[0][idx*batch*hidden+i] = T(h[i])
				if mode == "LSTM" {
					finals[1][idx*batch*hidden+i] = T(cs[i])
				}
			}
		}
		if train && l < layers-1 {
			keep := c.draw(len(out), func(r *rand.Rand) float64 { return b2f(r.Float64() >= p) })
			for i := range out {
				if keep[i] == 0 {
					out[i] = 0
				} else {
					out[i] = T(float64(out[i]) / (1 - p))
				}
			}
		}
		input, inSize = out, dirs*hidden
	}
	fs := make([]*tensor.Tensor[T], nStates)
	for k := range fs {
		fs[k] = &tensor.Tensor[T]{Shape: []int{layers * dirs, batch, hidden}, Data: finals[k]}
	}
	res := []*value[T]{c.out(&tensor.Tensor[T]{Shape: []int{steps, batch, dirs * hidden}, Data: input}, 0), nil, c.vecOut(fs, 2)}
	if tt := ir.TensorOf(c.op.Result(1).Type()); tt != nil {
		if shape, ok := tensor.StaticShape(tt.Dims); ok && slices.Contains(shape, 0) {
			// An inference program declares the state it does not keep as an empty tensor (0xf32) while the
			// operand is a 0-d uint8 (PP-OCRv3's recognizer): the result is what the type says.
			res[1] = c.out(&tensor.Tensor[T]{Shape: shape}, 1)
			return res, nil
		}
	}
	if ds, err := c.arg(4); err == nil {
		res[1] = ds.view(ds.shape, ds.dtype) // the dropout state passes through (a view, as the schema says)
	}
	return res, nil
}
