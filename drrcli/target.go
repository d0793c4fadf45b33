package drrcli

import (
	"flag"

	"github.com/pirdrr/drr/ir"
)

// targetFlag is -target, the device the program is rewritten for (ir.Target): cpu or gpu:smNN. It is the one
// definition of the flag for every command that takes it (apply, verify, check, test): it sets the rule-set
// parameter sm_version (drr.TargetParams) and selects the kernel table of the kernel check. A value ir.ParseTarget
// refuses is a usage error.
type targetFlag struct{ t ir.Target }

func (f *targetFlag) String() string { return f.t.String() }

func (f *targetFlag) Set(s string) error {
	t, err := ir.ParseTarget(s)
	if err != nil {
		return err
	}
	f.t = t
	return nil
}

func (f *targetFlag) register(fs *flag.FlagSet) {
	fs.Var(f, "target", "rewrite for the device `target`: cpu, or gpu:smNN with NN the GPU's compute capability (sets the rule-set parameter sm_version; -param sm_version=N is an alias)")
}
