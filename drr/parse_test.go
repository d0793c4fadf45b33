package drr

import (
	"strings"
	"testing"

	"github.com/pirdrr/drr/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDeclarations(t *testing.T) {
	src := `import "common.drr"

/// Convolutions.
family conv = [pd_op.conv2d, "pd_op.depthwise_conv2d"]
family inplace_ops = trait(Inplace)
family unary_inplace = trait(Inplace) - [pd_op.batch_norm_, pd_op.sync_batch_norm_] - conv
family alias = conv

/// Aligned to n bytes.
/// (second line)
native constraint aligned(%v: value, $n: i64)
native rewrite fold_weights(%w: value, %scale: value) -> value
`
	f := mustParse(t, src)
	require.Len(t, f.Decls, 7)
	require.Len(t, f.Imports, 1)
	require.Len(t, f.Families, 4)
	require.Len(t, f.Natives, 2)
	assert.Empty(t, f.Rules)

	assert.Equal(t, "common.drr", f.Imports[0].Path.Value)
	assert.Equal(t, `"common.drr"`, f.Imports[0].Path.Text)

	conv := f.Families[0]
	assert.Equal(t, "conv", conv.Name.Name)
	assert.Equal(t, "Convolutions.", conv.Doc.Text())
	list := conv.Set.(*FamilyList)
	require.Len(t, list.Ops, 2)
	assert.Equal(t, "pd_op.conv2d", list.Ops[0].Name)
	assert.False(t, list.Ops[0].Quoted)
	assert.Equal(t, "pd_op.depthwise_conv2d", list.Ops[1].Name)
	assert.True(t, list.Ops[1].Quoted)

	assert.Equal(t, "Inplace", f.Families[1].Set.(*FamilyTrait).Trait.Name)
	assert.Nil(t, f.Families[1].Doc)

	diff := f.Families[2].Set.(*FamilyDiff)
	inner := diff.X.(*FamilyDiff) // left-associative
	assert.IsType(t, &FamilyTrait{}, inner.X)
	assert.Len(t, inner.Y.(*FamilyList).Ops, 2)
	assert.Equal(t, "conv", diff.Y.(*FamilyRef).Name.Name)
	assert.Equal(t, 6, diff.OpSpan.Pos().Line)

	assert.Equal(t, "conv", f.Families[3].Set.(*FamilyRef).Name.Name)

	aligned := f.Natives[0]
	assert.Equal(t, NativeConstraint, aligned.Kind)
	assert.Equal(t, "aligned", aligned.Name.Name)
	assert.Equal(t, "Aligned to n bytes.\n(second line)", aligned.Doc.Text())
	require.Len(t, aligned.Params, 2)
	assert.Equal(t, ValueParam, aligned.Params[0].Kind)
	assert.Equal(t, "v", aligned.Params[0].Name)
	assert.Equal(t, "value", aligned.Params[0].Type.Name)
	assert.Equal(t, HoleParam, aligned.Params[1].Kind)
	assert.Equal(t, "i64", aligned.Params[1].Type.Name)
	assert.Nil(t, aligned.Result)

	fold := f.Natives[1]
	assert.Equal(t, NativeRewrite, fold.Kind)
	assert.Equal(t, "value", fold.Result.Name)
	assert.Nil(t, fold.Doc)
}

func TestParseRule(t *testing.T) {
	src := `/// Fold batch_norm into conv2d.
rule conv2d_bn_fold {
  benefit 3
  labels fusion, inference
  for c in conv
  for X_, X in inplace_ops
  match {
    %y = pd_op.conv2d(%x, %w)
  }
  where {
    $fmt == "NCHW"
    uses(%y) == 1
  }
  rewrite {
    replace %y with %x
  }
}
`
	f := mustParse(t, src)
	require.Len(t, f.Rules, 1)
	r := f.Rules[0]
	assert.Equal(t, "conv2d_bn_fold", r.Name.Name)
	assert.Equal(t, "Fold batch_norm into conv2d.", r.Doc.Text())
	assert.Equal(t, "3", r.Benefit.Value.Text)
	require.Len(t, r.Labels.Names, 2)
	assert.Equal(t, "inference", r.Labels.Names[1].Name)
	require.Len(t, r.Fors, 2)
	assert.Len(t, r.Fors[0].Names, 1)
	assert.Equal(t, "conv", r.Fors[0].Family.Name)
	require.Len(t, r.Fors[1].Names, 2)
	assert.Equal(t, "X_", r.Fors[1].Names[0].Name)
	assert.Equal(t, "X", r.Fors[1].Names[1].Name)
	assert.Equal(t, "inplace_ops", r.Fors[1].Family.Name)
	assert.Len(t, r.Match.Stmts, 1)
	assert.Len(t, r.Where.Constraints, 2)
	assert.Len(t, r.Rewrite.Stmts, 1)

	assert.Equal(t, 2, r.Pos().Line)
	assert.Equal(t, 1, r.Pos().Column)
	assert.Equal(t, 17, r.End().Line)
	assert.Equal(t, 2, r.End().Column, "EndPos is just after the closing brace")
	assert.Equal(t, len(src)-1, r.End().Offset)
	assert.Equal(t, 7, r.Match.Pos().Line)
	assert.Equal(t, 9, r.Match.End().Line)
}

func TestParseRuleClauseOrder(t *testing.T) {
	// Clauses may be written in any order; the formatter prints the canonical order.
	src := "rule r {\n  rewrite {\n    replace %y with %x\n  }\n  where {\n    true\n  }\n  match {\n    %y = a.b(%x)\n  }\n  labels l\n  benefit 1\n}\n"
	f := mustParse(t, src)
	r := f.Rules[0]
	require.NotNil(t, r.Match)
	require.NotNil(t, r.Where)
	require.NotNil(t, r.Rewrite)
	assert.Equal(t, "rule r {\n  benefit 1\n  labels l\n  match {\n    %y = a.b(%x)\n  }\n  where {\n    true\n  }\n  rewrite {\n    replace %y with %x\n  }\n}\n",
		string(checkRoundTrip(t, f)))
}

func TestParseSemicolons(t *testing.T) {
	f := mustParse(t, "rule r { match { %a = x.y(%b); %c = x.z(%a) }; rewrite { replace %c with %b } }\n")
	assert.Len(t, f.Rules[0].Match.Stmts, 2)
	assert.Len(t, f.Rules[0].Rewrite.Stmts, 1)
}

func TestParsePatternStatements(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		want  string // canonical form
		check func(t *testing.T, s *PatternStmt)
	}{
		{
			name: "basic",
			src:  "%y = pd_op.conv2d(%x, %w) {strides: $s, paddings: $p, groups: 1, data_format: $fmt}",
			want: "%y = pd_op.conv2d(%x, %w) {strides: $s, paddings: $p, groups: 1, data_format: $fmt}",
			check: func(t *testing.T, s *PatternStmt) {
				require.Len(t, s.Results, 1)
				assert.Equal(t, ResultValue, s.Results[0].Kind)
				assert.Equal(t, "y", s.Results[0].Name)
				assert.Equal(t, "pd_op.conv2d", s.Op.Name.Name)
				assert.False(t, s.Op.Name.IsBare())
				require.Len(t, s.Op.Operands, 2)
				assert.Equal(t, "w", s.Op.Operands[1].(*ValueOperand).Name)
				require.Len(t, s.Op.Attrs.Entries, 4)
				assert.Equal(t, "strides", s.Op.Attrs.Entries[0].Key.Name)
				assert.Equal(t, "s", s.Op.Attrs.Entries[0].Value.(*HoleExpr).Name)
				assert.Equal(t, "int:1", sexpr(s.Op.Attrs.Entries[2].Value))
				assert.Nil(t, s.Op.Attrs.Rest)
				assert.Nil(t, s.Op.Sig)
			},
		},
		{
			name: "printed form: parenthesised results, quoted name, blank before (",
			src:  `(%out, _, _, _, _, _) = "pd_op.batch_norm_" (%y, %mean, %var, %scale, %bias) {epsilon: $eps, data_format: $fmt}`,
			want: "%out, _, _, _, _, _ = pd_op.batch_norm_(%y, %mean, %var, %scale, %bias) {epsilon: $eps, data_format: $fmt}",
			check: func(t *testing.T, s *PatternStmt) {
				require.Len(t, s.Results, 6)
				assert.Equal(t, ResultWildcard, s.Results[5].Kind)
				assert.True(t, s.Op.Name.Quoted)
				assert.Len(t, s.Op.Operands, 5)
			},
		},
		{
			name: "ellipsis result",
			src:  "%out, ... = pd_op.batch_norm_(%x, %m, %v, %s, %b)",
			want: "%out, ... = pd_op.batch_norm_(%x, %m, %v, %s, %b)",
			check: func(t *testing.T, s *PatternStmt) {
				assert.Equal(t, ResultEllipsis, s.Results[1].Kind)
			},
		},
		{
			name: "nested op",
			src:  "%r = pd_op.relu(pd_op.conv2d(%x, %w))",
			want: "%r = pd_op.relu(pd_op.conv2d(%x, %w))",
			check: func(t *testing.T, s *PatternStmt) {
				inner := s.Op.Operands[0].(*OpPattern)
				assert.Equal(t, "pd_op.conv2d", inner.Name.Name)
				assert.Len(t, inner.Operands, 2)
			},
		},
		{
			name: "combine list and variadics",
			src:  "%c = pd_op.concat([%a, %b], [%xs...], %axis, %rest...)",
			want: "%c = pd_op.concat([%a, %b], [%xs...], %axis, %rest...)",
			check: func(t *testing.T, s *PatternStmt) {
				c := s.Op.Operands[0].(*CombineOperand)
				assert.Len(t, c.Elems, 2)
				v := s.Op.Operands[1].(*CombineOperand).Elems[0].(*VariadicOperand)
				assert.Equal(t, "xs", v.Name)
				assert.Equal(t, "rest", s.Op.Operands[3].(*VariadicOperand).Name)
			},
		},
		{
			name: "absent operands and wildcard",
			src:  "%o = pd_op.batch_norm_(%x, _, %v, null, <<NULL VALUE>>)",
			want: "%o = pd_op.batch_norm_(%x, _, %v, null, <<NULL VALUE>>)",
			check: func(t *testing.T, s *PatternStmt) {
				assert.IsType(t, &WildcardOperand{}, s.Op.Operands[1])
				assert.Equal(t, "null", s.Op.Operands[3].(*NullOperand).Text)
				assert.Equal(t, "<<NULL VALUE>>", s.Op.Operands[4].(*NullOperand).Text)
			},
		},
		{
			name: "family member with rest attributes",
			src:  "%z = X_(%a, %rest...) {$attrs...}",
			want: "%z = X_(%a, %rest...) {$attrs...}",
			check: func(t *testing.T, s *PatternStmt) {
				assert.True(t, s.Op.Name.IsBare())
				assert.Empty(t, s.Op.Attrs.Entries)
				assert.Equal(t, "attrs", s.Op.Attrs.Rest.Name)
			},
		},
		{
			name: "rest after listed attributes",
			src:  "%z = X_(%a) {axis: 1, $attrs...}",
			want: "%z = X_(%a) {axis: 1, $attrs...}",
		},
		{
			name: "mutable attribute through its producer",
			src:  "%s = pd_op.scale(%x, pd_op.full() {value: $f})",
			want: "%s = pd_op.scale(%x, pd_op.full() {value: $f})",
			check: func(t *testing.T, s *PatternStmt) {
				full := s.Op.Operands[1].(*OpPattern)
				assert.Empty(t, full.Operands)
				assert.Equal(t, "f", full.Attrs.Entries[0].Value.(*HoleExpr).Name)
			},
		},
		{
			name: "type patterns",
			src:  "%y = pd_op.conv2d(%x: tensor<?x$c x ? x ? x f32>, %w) : (tensor<*xf32>, builtin.tensor<64x3x7x7xf32>) -> tensor<*x$dt>",
			want: "%y = pd_op.conv2d(%x: tensor<? x $c x ? x ? x f32>, %w) : (tensor<*xf32>, builtin.tensor<64x3x7x7xf32>) -> tensor<* x $dt>",
			check: func(t *testing.T, s *PatternStmt) {
				ty := s.Op.Operands[0].(*ValueOperand).Type.(*TensorType)
				assert.Equal(t, "tensor", ty.Name)
				require.Len(t, ty.Dims, 4)
				assert.Equal(t, DimAny, ty.Dims[0].Kind)
				assert.Equal(t, DimHole, ty.Dims[1].Kind)
				assert.Equal(t, "c", ty.Dims[1].Text)
				assert.Equal(t, DtypeScalar, ty.Dtype.Kind)
				assert.Equal(t, "f32", ty.Dtype.Name)
				require.Len(t, s.Op.Sig.Inputs, 2)
				assert.Equal(t, DimStar, s.Op.Sig.Inputs[0].(*TensorType).Dims[0].Kind)
				b := s.Op.Sig.Inputs[1].(*TensorType)
				assert.Equal(t, "builtin.tensor", b.Name)
				assert.Equal(t, []string{"64", "3", "7", "7"}, dimTexts(b))
				assert.Equal(t, DtypeHole, s.Op.Sig.Outputs[0].(*TensorType).Dtype.Kind)
			},
		},
		{
			name: "other types",
			src:  "%y = my.op(%a: $t, %b: vec[tensor<2xf32>, f32], %c: ?, %d: _) : (i64, <<NULL TYPE>>, ...) -> pd_op.tensor_array<f32>",
			want: "%y = my.op(%a: $t, %b: vec[tensor<2xf32>, f32], %c: ?, %d: ?) : (i64, <<NULL TYPE>>, ...) -> pd_op.tensor_array<f32>",
			check: func(t *testing.T, s *PatternStmt) {
				assert.Equal(t, "t", s.Op.Operands[0].(*ValueOperand).Type.(*HoleType).Name)
				vec := s.Op.Operands[1].(*ValueOperand).Type.(*VecType)
				assert.Len(t, vec.Elems, 2)
				assert.Equal(t, "f32", vec.Elems[1].(*NamedType).Name)
				assert.IsType(t, &AnyType{}, s.Op.Operands[2].(*ValueOperand).Type)
				assert.IsType(t, &NullType{}, s.Op.Sig.Inputs[1])
				assert.IsType(t, &AnyTypes{}, s.Op.Sig.Inputs[2])
				arr := s.Op.Sig.Outputs[0].(*TensorType)
				assert.Empty(t, arr.Dims)
				assert.Equal(t, "f32", arr.Dtype.Name)
			},
		},
		{
			name: "either",
			src:  "%t = pd_op.add(either(%a, pd_op.relu(%b)))",
			want: "%t = pd_op.add(either(%a, pd_op.relu(%b)))",
			check: func(t *testing.T, s *PatternStmt) {
				e := s.Op.Operands[0].(*EitherOperand)
				require.Len(t, e.Operands, 2)
				assert.IsType(t, &OpPattern{}, e.Operands[1])
			},
		},
		{
			name: "op label",
			src:  "@f = pd_op.fetch(%x)",
			want: "@f = pd_op.fetch(%x)",
			check: func(t *testing.T, s *PatternStmt) {
				assert.Equal(t, "f", s.Label.Name)
				assert.Empty(t, s.Results)
			},
		},
		{
			name: "label and results",
			src:  "@bn = %a, _ = my.op(%x)",
			want: "@bn = %a, _ = my.op(%x)",
		},
		{
			name: "op without results",
			src:  "pd_op.fetch(%x)",
			want: "pd_op.fetch(%x)",
		},
		{
			name: "pasted printed PIR line (era B)",
			src:  `(%9, %10, %11, %12, %13, %14) = "pd_op.batch_norm_" (%8, %2, %4, %3, %1) {data_format:"NCHW",epsilon:(Float)1e-05,is_test:true,momentum:(Float)0.9,stop_gradient:[false,true,true,true,true,true]} : (builtin.tensor<-1x64x112x112xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>) -> builtin.tensor<-1x64x112x112xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<-1xf32>`,
			want: `%9, %10, %11, %12, %13, %14 = pd_op.batch_norm_(%8, %2, %4, %3, %1) {data_format: "NCHW", epsilon: (Float)1e-05, is_test: true, momentum: (Float)0.9, stop_gradient: [false, true, true, true, true, true]} : (builtin.tensor<-1x64x112x112xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>) -> builtin.tensor<-1x64x112x112xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<64xf32>, builtin.tensor<-1xf32>`,
			check: func(t *testing.T, s *PatternStmt) {
				assert.Len(t, s.Results, 6)
				assert.Equal(t, "9", s.Results[0].Name)
				attrs := s.Op.Attrs.Entries
				require.Len(t, attrs, 5)
				assert.Equal(t, "string:\"NCHW\"", sexpr(attrs[0].Value))
				assert.Equal(t, "NCHW", attrs[0].Value.(*BasicLit).Value)
				eps := attrs[1].Value.(*TaggedLit)
				assert.Equal(t, "Float", eps.Tag)
				assert.Equal(t, "1e-05", eps.Value.(*BasicLit).Text)
				assert.Equal(t, FloatLit, eps.Value.(*BasicLit).Kind)
				assert.Equal(t, "bool:true", sexpr(attrs[2].Value))
				assert.Len(t, attrs[4].Value.(*ListExpr).Elems, 6)
				assert.Len(t, s.Op.Sig.Inputs, 5)
				assert.Len(t, s.Op.Sig.Outputs, 6)
				assert.Equal(t, []string{"-1", "64", "112", "112"}, dimTexts(s.Op.Sig.Outputs[0].(*TensorType)))
			},
		},
		{
			name: "every printed attribute literal",
			src:  `%0 = "pd_op.data" () {a:(Int32)1,b:(Int64)-1,c:(Index)3,d:(Float)1e-05,e:(Double)1,f:(Pointer)0x7f5e24fb27c0,g:(pd_op.IntArray)[1,2],h:(pd_op.DataType)float32,i:(pd_op.Place)Place(gpu:0),j:(pd_op.DataLayout)NCHW,k:(pd_op.DataLayout)Undefined(AnyLayout),l:[(Int32)1,(Int32)1],m:builtin.tensor<1xf32>,n:<#AttrNull>,o:<backend:GPU|layout:NCHW|dtype:float32>,p:(Float)-inf,q:(Float)nan,r:(pd_op.IntArray)[],s:"a \"quoted\" word",t:(0x7f437760d7c0)} : () -> undefined_tensor<64x128xf32>`,
			want: `%0 = pd_op.data() {a: (Int32)1, b: (Int64)-1, c: (Index)3, d: (Float)1e-05, e: (Double)1, f: (Pointer)0x7f5e24fb27c0, g: (pd_op.IntArray)[1, 2], h: (pd_op.DataType)float32, i: (pd_op.Place)Place(gpu:0), j: (pd_op.DataLayout)NCHW, k: (pd_op.DataLayout)Undefined(AnyLayout), l: [(Int32)1, (Int32)1], m: builtin.tensor<1xf32>, n: <#AttrNull>, o: <backend:GPU|layout:NCHW|dtype:float32>, p: (Float)-inf, q: (Float)nan, r: (pd_op.IntArray)[], s: "a \"quoted\" word", t: (0x7f437760d7c0)} : () -> undefined_tensor<64x128xf32>`,
			check: func(t *testing.T, s *PatternStmt) {
				got := map[string]string{}
				for _, e := range s.Op.Attrs.Entries {
					got[e.Key.Name] = sexpr(e.Value)
				}
				assert.Equal(t, map[string]string{
					"a": "(tag Int32 int:1)",
					"b": "(tag Int64 int:-1)",
					"c": "(tag Index int:3)",
					"d": "(tag Float float:1e-05)",
					"e": "(tag Double int:1)",
					"f": "(tag Pointer int:0x7f5e24fb27c0)",
					"g": "(tag pd_op.IntArray (list int:1 int:2))",
					"h": "(tag pd_op.DataType name:float32)",
					"i": "(tag pd_op.Place sym:Place(gpu:0))",
					"j": "(tag pd_op.DataLayout name:NCHW)",
					"k": "(tag pd_op.DataLayout sym:Undefined(AnyLayout))",
					"l": "(list (tag Int32 int:1) (tag Int32 int:1))",
					"m": "type:builtin.tensor<1xf32>",
					"n": "sym:<#AttrNull>",
					"o": "sym:<backend:GPU|layout:NCHW|dtype:float32>",
					"p": "(tag Float float:-inf)",
					"q": "(tag Float float:nan)",
					"r": "(tag pd_op.IntArray (list))",
					"s": `string:"a \"quoted\" word"`,
					"t": "(paren int:0x7f437760d7c0)",
				}, got)
				assert.Equal(t, `a "quoted" word`, s.Op.Attrs.Entries[18].Value.(*BasicLit).Value)
			},
		},
		{
			name: "untagged attributes (newer Paddle)",
			src:  "%y = pd_op.conv2d(%x, %w) {epsilon:1e-05,dilations:[1,1],dtype:float32,place:Place(cpu),data_format:\"NCHW\"} : (tensor<-1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<-1x64x112x112xf32>",
			want: "%y = pd_op.conv2d(%x, %w) {epsilon: 1e-05, dilations: [1, 1], dtype: float32, place: Place(cpu), data_format: \"NCHW\"} : (tensor<-1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<-1x64x112x112xf32>",
		},
		{
			name: "zero results, empty attributes, no result types",
			src:  `() = "builtin.shadow_output" (%5) {} : (gpu_tensor<-1x-1xf32>) ->`,
			want: "builtin.shadow_output(%5) : (gpu_tensor<-1x-1xf32>) ->",
			check: func(t *testing.T, s *PatternStmt) {
				assert.Empty(t, s.Results)
				assert.NotNil(t, s.Op.Attrs)
				assert.Empty(t, s.Op.Attrs.Entries)
				assert.Empty(t, s.Op.Sig.Outputs)
			},
		},
		{
			name: "kernel op names stay quoted",
			src:  `(%4) = "add(phi_kernel)" (%1, %3) {kernel_name:"add",op_name:"pd_op.add"} : (gpu_tensor<-1x-1xf32>, gpu_tensor<-1x-1xf32>) -> gpu_tensor<-1x-1xf32>`,
			want: `%4 = "add(phi_kernel)"(%1, %3) {kernel_name: "add", op_name: "pd_op.add"} : (gpu_tensor<-1x-1xf32>, gpu_tensor<-1x-1xf32>) -> gpu_tensor<-1x-1xf32>`,
			check: func(t *testing.T, s *PatternStmt) {
				assert.Equal(t, "add(phi_kernel)", s.Op.Name.Name)
				assert.False(t, s.Op.Name.IsBare())
			},
		},
		{
			name: "quoted name without a dot stays quoted",
			src:  `%y = "relu"(%x)`,
			want: `%y = "relu"(%x)`,
			check: func(t *testing.T, s *PatternStmt) {
				assert.False(t, s.Op.Name.IsBare(), "a quoted name is an op, not a family variable")
			},
		},
		{
			name: "region op header: result types only",
			src:  `(%5) = "pd_op.if" (%4) {stop_gradient:[false]} -> builtin.tensor<1xf32>`,
			want: "%5 = pd_op.if(%4) {stop_gradient: [false]} -> builtin.tensor<1xf32>",
			check: func(t *testing.T, s *PatternStmt) {
				assert.True(t, s.Op.Sig.NoInputs)
				assert.Len(t, s.Op.Sig.Outputs, 1)
			},
		},
		{
			name: "op id is accepted and dropped",
			src:  `(%2) = "pd_op.relu" [id:7] (%1) {}`,
			want: "%2 = pd_op.relu(%1)",
		},
		{
			name: "wrapped over several lines",
			src:  "%y = pd_op.conv2d(\n      %x,\n      %w) {\n      strides: $s,\n      groups: 1,\n    }",
			want: "%y = pd_op.conv2d(%x, %w) {strides: $s, groups: 1}",
		},
		{
			name: "wildcard and list patterns in attributes",
			src:  "%y = a.b(%x) {k: _, l: [$a, 1], m: -1}",
			want: "%y = a.b(%x) {k: _, l: [$a, 1], m: -1}",
			check: func(t *testing.T, s *PatternStmt) {
				assert.IsType(t, &WildcardExpr{}, s.Op.Attrs.Entries[0].Value)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parsePattern(t, tt.src)
			assert.Equal(t, tt.want, patternStmtString(s))
			if tt.check != nil {
				tt.check(t, s)
			}
			checkRoundTrip(t, mustParse(t, wrapMatch(tt.src)))
		})
	}
}

func dimTexts(t *TensorType) []string {
	var out []string
	for _, d := range t.Dims {
		out = append(out, d.Text)
	}
	return out
}

func TestParseExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a || b && c", "(|| name:a (&& name:b name:c))"},
		{"a && b || c", "(|| (&& name:a name:b) name:c)"},
		{"$a == 1 || $b != 2", "(|| (== $a int:1) (!= $b int:2))"},
		{`$fmt in ["NCHW", "NHWC"] && $g > 1`, `(&& (in $fmt (list string:"NCHW" string:"NHWC")) (> $g int:1))`},
		{"$a + $b * $c - $d", "(- (+ $a (* $b $c)) $d)"},
		{"$a - $b - $c", "(- (- $a $b) $c)"},
		{"$a / $b % $c", "(% (/ $a $b) $c)"},
		{"$a + 1 < $b * 2", "(< (+ $a int:1) (* $b int:2))"},
		{"-$a * $b", "(* (- $a) $b)"},
		{"!$a == $b", "(== (! $a) $b)"},
		{"!!$a", "(! (! $a))"},
		{"$a - -1", "(- $a int:-1)"},
		{"$c ? $a : $b", "(? $c $a $b)"},
		{"$c ? $a : $d ? $e : $f", "(? $c $a (? $d $e $f))"},
		{"$c || $d ? 1 : 2", "(? (|| $c $d) int:1 int:2)"},
		{"$c ? $x ? 1 : 2 : 3", "(? $c (? $x int:1 int:2) int:3)"},
		{"$s[0] + len($s)", "(+ (index $s int:0) (call len $s))"},
		{"shape(%v)[1][0]", "(index (index (call shape %v) int:1) int:0)"},
		{"($a + $b) * $c", "(* (paren (+ $a $b)) $c)"},
		{"$x % 2 == 0", "(== (% $x int:2) int:0)"},
		{`"a" + $s == "ab"`, `(== (+ string:"a" $s) string:"ab")`},
		{"dtype(%v) == float32", "(== (call dtype %v) name:float32)"},
		{"defined_by(%v, pd_op.full)", "(call defined_by %v name:pd_op.full)"},
		{"has_trait(%v, Inplace)", "(call has_trait %v name:Inplace)"},
		{"startswith(param_name(%w), \"conv\")", "(call startswith (call param_name %w) string:\"conv\")"},
		{"unused(%a, %b)", "(call unused %a %b)"},
		{"aligned(%x, 8)", "(call aligned %x int:8)"},
		{"1e-05 < 0.5", "(< float:1e-05 float:0.5)"},
		{"true != false", "(!= bool:true bool:false)"},
		{"$t == tensor<?xf32>", "(== $t type:tensor<?xf32>)"},
		{"$a == null", "(== $a null:null)"},
		{"$a<$b", "(< $a $b)"},
		{"$a<=$b", "(<= $a $b)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			e := parseConstraint(t, tt.src)
			assert.Equal(t, tt.want, sexpr(e))
			// The canonical form re-parses to the same tree.
			again := parseConstraint(t, exprString(e))
			assert.Equal(t, tt.want, sexpr(again))
		})
	}
}

func TestFormatExprAddsNeededParens(t *testing.T) {
	// Trees built by hand (without ParenExpr) print with the parentheses
	// their structure needs.
	a := &HoleExpr{Name: "a"}
	b := &HoleExpr{Name: "b"}
	c := &HoleExpr{Name: "c"}
	sum := &BinaryExpr{X: a, Op: "+", Y: b}
	assert.Equal(t, "($a + $b) * $c", exprString(&BinaryExpr{X: sum, Op: "*", Y: c}))
	assert.Equal(t, "$a - ($b - $c)", exprString(&BinaryExpr{X: a, Op: "-", Y: &BinaryExpr{X: b, Op: "-", Y: c}}))
	assert.Equal(t, "-($a + $b)", exprString(&UnaryExpr{Op: "-", X: sum}))
	assert.Equal(t, "- -1", exprString(&UnaryExpr{Op: "-", X: &BasicLit{Kind: IntLit, Text: "-1"}}))
	assert.Equal(t, "($a ? $b : $c) ? 1 : 2", exprString(&CondExpr{
		Cond: &CondExpr{Cond: a, Then: b, Else: c},
		Then: &BasicLit{Kind: IntLit, Text: "1"}, Else: &BasicLit{Kind: IntLit, Text: "2"}}))
	assert.Equal(t, "($a + $b)[0]", exprString(&IndexExpr{X: sum, Index: &BasicLit{Kind: IntLit, Text: "0"}}))
}

func TestParseRewriteStatements(t *testing.T) {
	tests := []struct {
		src   string
		want  string
		check func(t *testing.T, s RewriteStmt)
	}{
		{
			src:  "%std   = pd_op.sqrt(pd_op.add(%var, pd_op.full() {shape: [1], value: $eps, dtype: dtype(%var)}))",
			want: "%std = pd_op.sqrt(pd_op.add(%var, pd_op.full() {shape: [1], value: $eps, dtype: dtype(%var)}))",
			check: func(t *testing.T, s RewriteStmt) {
				a := s.(*AssignStmt)
				assert.Equal(t, "std", a.Results[0].Name)
				assert.Equal(t, "(call pd_op.sqrt (call pd_op.add %var (call pd_op.full attrs {shape: [1], value: $eps, dtype: dtype(%var)})))", sexpr(a.Value))
				assert.Nil(t, a.Types)
			},
		},
		{
			src:  `%bshape = pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1]}`,
			want: `%bshape = pd_op.full_int_array() {value: $fmt == "NCHW" ? [1, -1, 1, 1] : [1, 1, 1, -1]}`,
			check: func(t *testing.T, s RewriteStmt) {
				v := s.(*AssignStmt).Value.(*CallExpr).Attrs.Entries[0].Value
				assert.Equal(t, `(? (== $fmt string:"NCHW") (list int:1 int:-1 int:1 int:1) (list int:1 int:1 int:1 int:-1))`, sexpr(v))
			},
		},
		{
			src:  "replace %out with pd_op.add(%c, pd_op.reshape(%b2, %bshape))",
			want: "replace %out with pd_op.add(%c, pd_op.reshape(%b2, %bshape))",
			check: func(t *testing.T, s RewriteStmt) {
				r := s.(*ReplaceStmt)
				assert.False(t, r.Later)
				assert.Equal(t, "out", r.Old.Name)
				assert.IsType(t, &CallExpr{}, r.New)
			},
		},
		{
			src:  "replace later uses of %a with %n",
			want: "replace later uses of %a with %n",
			check: func(t *testing.T, s RewriteStmt) {
				r := s.(*ReplaceStmt)
				assert.True(t, r.Later)
				assert.Equal(t, "n", r.New.(*ValueExpr).Name)
			},
		},
		{
			src:  "%n = X(%a, %rest...) {$attrs...}",
			want: "%n = X(%a, %rest...) {$attrs...}",
			check: func(t *testing.T, s RewriteStmt) {
				c := s.(*AssignStmt).Value.(*CallExpr)
				assert.True(t, c.Func.IsBare())
				assert.Equal(t, "(... %rest)", sexpr(c.Args[1]))
				assert.Equal(t, "attrs", c.Attrs.Rest.Name)
			},
		},
		{
			src:  "%u = my.op(%x) -> tensor<?xf32>",
			want: "%u = my.op(%x) -> tensor<?xf32>",
			check: func(t *testing.T, s RewriteStmt) {
				assert.Len(t, s.(*AssignStmt).Types, 1)
			},
		},
		{
			src:  "%a, %b = my.split(%x) -> type(%x), tensor<*xf32>",
			want: "%a, %b = my.split(%x) -> type(%x), tensor<*xf32>",
			check: func(t *testing.T, s RewriteStmt) {
				a := s.(*AssignStmt)
				assert.Len(t, a.Results, 2)
				assert.Equal(t, "x", a.Types[0].(*TypeOf).Value)
			},
		},
		{
			src:  "(%a) = pd_op.concat([%x, %y], %axis)",
			want: "%a = pd_op.concat([%x, %y], %axis)",
		},
		{
			src:  "%v = fold_weights(%w, %scale)",
			want: "%v = fold_weights(%w, %scale)",
		},
		{
			src:  "erase @f",
			want: "erase @f",
			check: func(t *testing.T, s RewriteStmt) {
				assert.Equal(t, "f", s.(*EraseStmt).Target.(*LabelExpr).Name)
			},
		},
		{
			src:  "erase %v",
			want: "erase %v",
		},
		{
			src:  "record_fusion(%x, \"conv_bn\")",
			want: "record_fusion(%x, \"conv_bn\")",
			check: func(t *testing.T, s RewriteStmt) {
				assert.IsType(t, &CallExpr{}, s.(*ExprStmt).X)
			},
		},
		{
			src:  "%c = pd_op.conv2d(%x, %w) {strides: $s, groups: $g * 2, data_format: \"NHWC\", padding: [(Int32)1, (Int32)1]}",
			want: "%c = pd_op.conv2d(%x, %w) {strides: $s, groups: $g * 2, data_format: \"NHWC\", padding: [(Int32)1, (Int32)1]}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s := parseRewrite(t, tt.src)
			assert.Equal(t, tt.want, rewriteStmtString(s))
			if tt.check != nil {
				tt.check(t, s)
			}
			checkRoundTrip(t, mustParse(t, wrapRewrite(tt.src)))
		})
	}
}

func TestParsePositions(t *testing.T) {
	src := "rule r {\n  match {\n    %y = pd_op.conv2d(%x: tensor<?x$c x 7xf32>, %w) {k: (Int32)1}\n  }\n  rewrite {\n    replace %y with %x + 1\n  }\n}\n"
	f := mustParse(t, src)
	s := f.Rules[0].Match.Stmts[0]
	at := func(n Node) [3]int {
		p := n.Pos()
		assert.Equal(t, "t.drr", p.Filename)
		return [3]int{p.Line, p.Column, p.Offset}
	}
	offset := strings.Index(src, "%y")
	assert.Equal(t, [3]int{3, 5, offset}, at(s))
	assert.Equal(t, [3]int{3, 10, offset + 5}, at(s.Op))
	assert.Equal(t, [3]int{3, 10, offset + 5}, at(s.Op.Name))
	x := s.Op.Operands[0].(*ValueOperand)
	assert.Equal(t, [3]int{3, 23, offset + 18}, at(x))
	ty := x.Type.(*TensorType)
	assert.Equal(t, [3]int{3, 27, offset + 22}, at(ty))
	// Positions inside the tensor type token come from the sub-parser.
	assert.Equal(t, [3]int{3, 34, offset + 29}, at(ty.Dims[0]))
	assert.Equal(t, [3]int{3, 36, offset + 31}, at(ty.Dims[1]))
	assert.Equal(t, "$c", src[ty.Dims[1].Pos().Offset:ty.Dims[1].End().Offset])
	assert.Equal(t, 38, ty.Dims[1].End().Column)
	assert.Equal(t, [3]int{3, 41, offset + 36}, at(ty.Dims[2]))
	assert.Equal(t, [3]int{3, 43, offset + 38}, at(ty.Dtype))
	assert.Equal(t, "f32", src[ty.Dtype.Pos().Offset:ty.Dtype.End().Offset])
	assert.Equal(t, 3, ty.End().Line)
	assert.Equal(t, 47, ty.End().Column)
	assert.Equal(t, "tensor<?x$c x 7xf32>", src[ty.Pos().Offset:ty.End().Offset])
	entry := s.Op.Attrs.Entries[0]
	assert.Equal(t, "(Int32)1", src[entry.Value.Pos().Offset:entry.Value.End().Offset])
	assert.Equal(t, "k: (Int32)1", src[entry.Pos().Offset:entry.End().Offset])
	assert.Equal(t, "%y = pd_op.conv2d(%x: tensor<?x$c x 7xf32>, %w) {k: (Int32)1}", src[s.Pos().Offset:s.End().Offset])

	r := f.Rules[0].Rewrite.Stmts[0].(*ReplaceStmt)
	bin := r.New.(*BinaryExpr)
	assert.Equal(t, [3]int{6, 21, strings.Index(src, "%x +")}, at(bin))
	assert.Equal(t, "+", src[bin.OpSpan.Pos().Offset:bin.OpSpan.Pos().Offset+1])
	assert.Equal(t, "%x + 1", src[bin.Pos().Offset:bin.End().Offset])
}

func TestParseDocComments(t *testing.T) {
	src := `/// not attached: blank line follows

/// attached to family
family f = [a.b]
/// one
/// two
rule r { match { %y = a.b(%x) } rewrite { replace %y with %x } }
/// not a doc: an import
import "x.drr"
// plain
/// doc after a plain comment
native constraint c(%v: value)
x.y // trailing /// comment
`
	f, err := Parse("t.drr", []byte(src))
	require.Error(t, err) // the stray x.y line
	require.Len(t, f.Families, 1)
	assert.Equal(t, "attached to family", f.Families[0].Doc.Text())
	assert.Equal(t, "one\ntwo", f.Rules[0].Doc.Text())
	assert.Equal(t, "doc after a plain comment", f.Natives[0].Doc.Text())
	assert.Len(t, f.Comments, 8)
}

func TestParseMultipleErrors(t *testing.T) {
	src := `rule a {
  match {
    %y = pd_op.conv2d(%x, %w {k: 1}
    %z = pd_op.relu(%y
    %ok = pd_op.relu(%z)
  }
  rewrite {
    replace %y %x
  }
}

rule b {
  match {
    %y = pd_op.relu(%x) $
  }
  rewrite {
    erase
  }
}

family c = [x.y,
rule d { match { %y = a.b(%x) } rewrite { replace %y with %x } }
`
	f, err := Parse("t.drr", []byte(src))
	require.Error(t, err)
	var msgs []string
	for _, d := range err.(diag.Diagnostics) {
		msgs = append(msgs, d.Error())
	}
	assert.Equal(t, []string{
		"t.drr:3:30: error: expected ')' after operands of pd_op.conv2d, found '{'",
		"t.drr:4:23: error: expected ')' after operands of pd_op.relu, found end of line",
		"t.drr:8:16: error: expected 'with' after 'replace %y', found '%x'",
		"t.drr:14:25: error: expected a hole name after '$'",
		"t.drr:17:10: error: expected op label (@name) or value after 'erase', found end of line",
		"t.drr:21:17: error: expected op name in the op list of family c, found end of line",
	}, msgs)
	// The valid parts are still returned.
	require.Len(t, f.Rules, 3)
	assert.Len(t, f.Rules[0].Match.Stmts, 1)
	assert.Equal(t, "d", f.Rules[2].Name.Name)
}

func TestParseErrorMessages(t *testing.T) {
	tests := []struct{ src, want string }{
		{"rule", "t.drr:1:5: error: expected rule name after 'rule', found end of file"},
		{"rule r", "t.drr:1:7: error: expected '{' after rule name r, found end of file"},
		{"rule r {\n  match {\n", "t.drr:2:9: error: unclosed '{' of match block of rule r (missing '}')"},
		{"rule r {\n  match {}\n  rewrite {}\n  bogus\n}", "t.drr:4:3: error: expected 'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in rule r, found 'bogus'"},
		{"rule r {\n  match\n}", "t.drr:2:8: error: expected '{' after 'match', found end of line"},
		{"rule r {\n  rewrite {}\n}", "t.drr:1:1: error: rule r has no match block"},
		{"rule r {\n  match {}\n  rewrite {}\n  match {}\n}", "t.drr:4:3: error: duplicate 'match' in rule r (first at 2:3)"},
		{"rule r {\n  benefit -1\n}", "t.drr:2:11: error: expected non-negative integer after 'benefit', found '-1'"},
		{"bogus", "t.drr:1:1: error: expected 'rule', 'family', 'native', 'param' or 'import', found 'bogus'"},
		{"rul r {}", "t.drr:1:1: error: expected 'rule', 'family', 'native', 'param' or 'import', found 'rul' (did you mean 'rule'?)"},
		{"famliy f = [a.b]", "t.drr:1:1: error: expected 'rule', 'family', 'native', 'param' or 'import', found 'famliy' (did you mean 'family'?)"},
		{"rule r {\n  mach {}\n  rewrite {}\n}", "t.drr:2:3: error: expected 'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in rule r, found 'mach' (did you mean 'match'?)"},
		{"rule r {\n  match { %y = a.b(%x) }\n  rewrte { replace %y with %x }\n}", "t.drr:3:3: error: expected 'benefit', 'labels', 'for', 'match', 'where' or 'rewrite' in rule r, found 'rewrte' (did you mean 'rewrite'?)"},
		{"}", "t.drr:1:1: error: unexpected '}' at top level (no open '{')"},
		{"import \"a\" \"b\"", "t.drr:1:12: error: expected end of line after import, found string \"b\""},
		{"family f = trait(Inplace) + [a.b]", "t.drr:1:27: error: expected end of line after family f, found '+'"},
		{wrapMatch("%y = 3"), "t.drr:3:6: error: expected op name after '=', found '3'"},
		{wrapMatch("%y = pd_op.relu"), "t.drr:3:16: error: expected '(' after op name pd_op.relu, found end of line"},
		{wrapMatch("%y = pd_op.relu(%x,)  {k 1}"), "t.drr:3:26: error: expected ':' after attribute name k, found '1'"},
		{wrapMatch("%y = pd_op.relu(%x) {k: }"), "t.drr:3:25: error: expected value of attribute k, found '}'"},
		{wrapMatch("%y = pd_op.relu(%x) {k: 1 j: 2}"), "t.drr:3:27: error: expected ',' or '}' after attribute k of pd_op.relu, found 'j'"},
		{wrapMatch("%y = pd_op.relu(%x) {$a..., k: 1}"), "t.drr:3:29: error: '$a...' must be the last entry in the attributes of pd_op.relu"},
		{wrapMatch("%y = pd_op.relu(%x) : (f32 -> f32"), "t.drr:3:28: error: expected ',' or ')' after operand type of pd_op.relu, found '->'"},
		{wrapMatch("%y = pd_op.relu(%x) : (f32)"), "t.drr:3:28: error: expected '->' after the operand types of pd_op.relu, found end of line"},
		{wrapMatch("%y = pd_op.relu(%x: )"), "t.drr:3:21: error: expected type of operand %x, found ')'"},
		{wrapMatch("%y = pd_op.concat([%a, %b)"), "t.drr:3:26: error: expected ',' or ']' in the combined operands of pd_op.concat, found ')'"},
		{wrapMatch("%y = pd_op.relu(%x: tensor<>)"), "t.drr:3:28: error: empty tensor type: expected element type such as f32"},
		{wrapMatch("%y = pd_op.relu(%x: tensor<1x>)"), "t.drr:3:30: error: expected element type after 'x' in tensor type"},
		{wrapMatch("%y = pd_op.relu(%x: tensor<f32 x 1>)"), "t.drr:3:28: error: f32 is not a dimension (only the last item of a tensor type is the element type)"},
		{wrapMatch("%y = pd_op.relu(%x: tensor<1x2>)"), "t.drr:3:30: error: tensor type must end with an element type such as f32, found 2"},
		{wrapMatch("%y = pd_op.relu(%x: tensor<1x$>)"), "t.drr:3:30: error: expected a hole name after '$' in tensor type"},
		{wrapMatch("%y = pd_op.relu(%x) extra"), "t.drr:3:21: error: expected end of line or ';' after pattern statement, found 'extra'"},
		{wrapMatch("= pd_op.relu(%x)"), "t.drr:3:1: error: expected pattern statement (e.g. '%y = pd_op.relu(%x)'), found '='"},
		{wrapMatch("@f pd_op.relu(%x)"), "t.drr:3:4: error: expected '=' after op label @f, found 'pd_op.relu'"},
		{wrapMatch("%a, %b pd_op.relu(%x)"), "t.drr:3:8: error: expected '=' after results, found 'pd_op.relu'"},
		{wrapMatch("%a, 1 = pd_op.relu(%x)"), "t.drr:3:5: error: expected result (%name, _ or ...), found '1'"},
		{wrapMatch(`%y = ""(%x)`), "t.drr:3:6: error: empty op name"},
		{wrapWhere("$a == "), "t.drr:6:6: error: expected operand after '==', found end of line"},
		{wrapWhere("$a ? 1"), "t.drr:6:7: error: expected ':' in conditional expression '… ? … : …', found end of line"},
		{wrapWhere("($a"), "t.drr:6:4: error: expected ')' to close '(' at 6:1, found end of line"},
		{wrapWhere("len(1, 2"), "t.drr:6:9: error: expected ')' after arguments of len, found end of line"},
		{wrapWhere("$s[0"), "t.drr:6:5: error: expected ']' after index expression, found end of line"},
		{wrapWhere("%v = 1"), "t.drr:6:4: error: expected end of line or ';' after constraint, found '=' (constraints are boolean expressions; use '==' to compare)"},
		{wrapWhere("==1"), "t.drr:6:1: error: expected constraint expression in where block, found '=='"},
		{wrapRewrite("replace %y"), "t.drr:6:11: error: expected 'with' after 'replace %y', found end of line"},
		{wrapRewrite("replace later %y with %x"), "t.drr:6:15: error: expected 'uses' after 'replace later', found '%y'"},
		{wrapRewrite("replace with %x"), "t.drr:6:9: error: expected value or 'later uses of' after 'replace', found 'with'"},
		{wrapRewrite("erase pd_op.relu"), "t.drr:6:7: error: expected op label (@name) or value after 'erase', found 'pd_op.relu'"},
		{wrapRewrite("%a = pd_op.add(%x %y)"), "t.drr:6:19: error: expected ')' after operands of pd_op.add, found '%y'"},
		{wrapRewrite("%a = f(%x) -> "), "t.drr:6:14: error: expected result type after '->', found end of line"},
		{wrapRewrite("%x + 1"), "t.drr:6:4: error: expected '=' after result %x, found '+'"},
		{wrapRewrite("1 + f(%x)"), "t.drr:6:1: error: a rewrite statement that is an expression must be a call (of a native rewrite)"},
		{"native constraint c(x: value)", "t.drr:1:21: error: expected parameter (%value or $hole) of native c, found 'x'"},
		{"native constraint c(%x: value) -> ", "t.drr:1:35: error: expected result type after '->' in native c, found end of file"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, firstError(tt.src))
		})
	}
}

func TestParseNeverPanics(t *testing.T) {
	inputs := []string{
		"", "\n", "{", "}", "(", ")", "[", "]", "rule", "rule r {", "rule r { match {", "rule r { match { %y = ",
		"rule r { match { %y = a.b(", "rule r { match { %y = a.b(%x) {", "rule r { match { %y = a.b(%x) {k:",
		"rule r { match { %y = a.b(%x) : (", "rule r { match { %y = a.b(%x) : () ->", "rule r { where { (((( } }",
		"rule r { where { $a ? } }", "rule r { rewrite { replace } }", "rule r { rewrite { %a, = f() } }",
		"family", "family f", "family f =", "family f = [", "family f = trait(", "native", "native rewrite",
		"native rewrite f(", "native rewrite f(%x", "native rewrite f(%x:", "import", "(Int32)", "<<", "<#",
		"tensor<", "\"", "\"\\", "%", "$", "@", "...", "\x00\xff\xfe", "rule r { match { %y = a.b(%x: tensor<*x*x*>) } }",
		"rule r {\n}\n}\n}\n", "rule r { match { } rewrite { } }\nrule r { match { } rewrite { } }",
		strings.Repeat("(", 10000), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		"rule r { where { " + strings.Repeat("-", 5000) + "1 } }",
		"rule r { where { " + strings.Repeat("!", 5000) + "1 } }",
	}
	for _, in := range inputs {
		assert.NotPanics(t, func() {
			f, err := Parse("t.drr", []byte(in))
			if err != nil {
				assert.NotContains(t, err.Error(), "internal error")
			}
			Format(f)
		}, "%q", in)
	}
}

func TestParseErrorsAreDiagnostics(t *testing.T) {
	_, err := Parse("x.drr", []byte("rule r {\n\tmatch { %y = a.b(%x }\n}\n"))
	var ds diag.Diagnostics
	require.ErrorAs(t, err, &ds)
	require.True(t, ds.HasErrors())
	require.Equal(t, err, ds.Err())
	assert.Equal(t, diag.Error, ds[0].Severity)
	assert.Equal(t, "x.drr", ds[0].Pos.Filename)
	assert.Equal(t, "x.drr:2:22: error: expected ')' after operands of a.b, found '}'\n\tmatch { %y = a.b(%x }\n\t                    ^\n",
		ds[0].Render([]byte("rule r {\n\tmatch { %y = a.b(%x }\n}\n")))
}
