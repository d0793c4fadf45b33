package rules

import "github.com/pirdrr/drr/ir"

// AnalyzeBlockSlice exposes the analysis of MaximizeValueSemantics's pattern A to the external tests: nil if the
// pattern applies to the copy, else why not.
func AnalyzeBlockSlice(cp *ir.Op) error {
	_, err := analyzeBlockSlice(cp)
	return err
}

// AnalyzeViewSubgraph exposes the analysis of pattern B likewise.
func AnalyzeViewSubgraph(cp *ir.Op) error {
	_, err := analyzeViewSubgraph(cp)
	return err
}
