package interp

// The helpers of the internal tests that the external ones (package interp_test: the tests that draw random data
// with package feeds or compare programs with package compare, which import interp) use too.
var (
	Eval             = eval
	Host             = host
	Seq              = seq
	Kctx             = kctx
	SharedCorpusPath = sharedCorpusPath
	Sh               = sh
	Ramp             = ramp
	SetData          = setData
)
