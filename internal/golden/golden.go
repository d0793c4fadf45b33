// Package golden lets every test binary of the module accept the flag -update, so that `go test ./... -update`
// runs in every package and refreshes the golden files of the packages that have them (their txtar archives,
// drrtest's archives as drrc test -update refreshes them). Go passes the flag to every test binary, and one that
// does not define it fails; a package without golden files calls Register from an init function of its tests.
package golden

import "flag"

// Name is the flag's name.
const Name = "update"

// Register defines the test flag -update unless the test binary defines it already: packages with golden files
// define their own as a package-level variable, which is initialized before init functions run.
func Register() {
	if flag.Lookup(Name) == nil {
		flag.Bool(Name, false, "rewrite golden files (go test ./... -update; this package has none of its own)")
	}
}

// Update reports whether the test binary runs with -update (false when no package of it defines the flag).
func Update() bool {
	f := flag.Lookup(Name)
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, ok := g.Get().(bool)
	return ok && b
}
