package drrtest

import (
	"fmt"
	"strings"

	"golang.org/x/tools/txtar"
)

// runSep separates a run's name from the name of its section: gpu_inference:passes.
const runSep = ":"

// runSections are the sections a named run may have besides its output (RUN:output.pir, RUN:output/…).
var runSections = []string{"passes", "options", "stats", "ops", "errors"}

// archiveRuns returns the runs of an archive: "" for the first run (the unprefixed sections), then the prefix
// "NAME:" of every run an archive declares with a NAME:passes section, in the archive's order. A prefixed section
// of no declared run, or of no kind a run has, is an error: a misspelt run would otherwise be silently skipped.
func archiveRuns(ar *txtar.Archive) ([]string, error) {
	runs := []string{""}
	declared := map[string]bool{}
	for _, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, runSep+"passes")
		if !ok {
			continue
		}
		if !validRunName(name) {
			return nil, fmt.Errorf("section %s: a run's name is letters, digits, _ and -", f.Name)
		}
		if declared[name] {
			return nil, fmt.Errorf("section %s appears twice", f.Name)
		}
		declared[name] = true
		runs = append(runs, name+runSep)
	}
	for _, f := range ar.Files {
		run, rest, ok := strings.Cut(f.Name, runSep)
		if !ok {
			continue
		}
		if !declared[run] {
			return nil, fmt.Errorf("section %s belongs to no run: the archive has no section %s%spasses", f.Name, run, runSep)
		}
		if !isRunSection(rest) {
			return nil, fmt.Errorf("section %s: a run's sections are %s and its output (%s%soutput.pir, …)", f.Name,
				strings.Join(runSections, ", "), run, runSep)
		}
	}
	return runs, nil
}

func validRunName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func isRunSection(rest string) bool {
	for _, s := range runSections {
		if rest == s {
			return true
		}
	}
	return rest == "output.pir" || rest == "output.json" || strings.HasPrefix(rest, "output/")
}

// runLabel is the prefix of a named run's failure messages ("run gpu_inference: "); "" for the first run.
func runLabel(run string) string {
	if run == "" {
		return ""
	}
	return "run " + strings.TrimSuffix(run, runSep) + ": "
}
