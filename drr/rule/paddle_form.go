package rule

// PaddleForm is how `drrc gen -lang paddle` (package rulegen/paddle) writes a call of a builtin in C++, in the
// constraint and ComputeAttr lambdas of a Paddle DRR pass. It is kept with the builtin so that a new builtin brings
// its export along: the exporter knows no builtin by name, and refuses, with the call's position, a builtin whose
// Paddle form is nil or whose arguments are not of the kinds Args says.
type PaddleForm struct {
	// Code is the C++ expression: {0}, {1}, … stand for the C++ of the arguments and {T} for their common C++ type
	// (int64_t or double: min, max). With Each, Code tests one argument ({0}) and is written once per argument,
	// the parts joined by " && ".
	Code string
	// Args are the kinds the arguments must have, one per argument: "value" (a %value), "int", "number" (an int or
	// a float, all arguments alike), "sized" (a list or a string that is no literal: it has .size()). With Each,
	// the one entry is the kind of every argument.
	Args []string
	// Each marks a builtin variadic over its arguments (immutable, unused): true when Code holds for each.
	Each bool
	// Result is the kind of the C++ value: "bool", "int", "dtype", "list" (a std::vector<int64_t>), or "arg" (that
	// of the first argument).
	Result string
	// Helpers names the support functions of the generated file that Code calls (Numel, Dim, IsParameter,
	// IsConstant, MayBeWritten); the exporter writes each one used once.
	Helpers []string
	// Includes names the standard headers Code needs (cmath, algorithm).
	Includes []string
}
