package shard

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The variables FromEnv reads.
const (
	// BazelTotal and BazelIndex are Bazel's test sharding (index from 0); Bazel sets BazelStatusFile to a file the
	// test touches to say it shards.
	BazelTotal      = "TEST_TOTAL_SHARDS"
	BazelIndex      = "TEST_SHARD_INDEX"
	BazelStatusFile = "TEST_SHARD_STATUS_FILE"
	// JobIndex is a Kubernetes Indexed Job's completion index (from 0). Kubernetes does not pass the total to the
	// pod: the Job's spec sets TotalVar to its completions.
	JobIndex = "JOB_COMPLETION_INDEX"
	// TotalVar is the shard count of a Kubernetes Indexed Job (its .spec.completions).
	TotalVar = "PIRDRR_TOTAL_SHARDS"
)

// FromEnv reads the shard of an engine's variables: Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX first, then a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX with PIRDRR_TOTAL_SHARDS. from names the variables read ("" with
// the zero Spec when none are set). A variable that is set but malformed, or JOB_COMPLETION_INDEX without
// PIRDRR_TOTAL_SHARDS, is an error: running every program in every shard would be silent duplicate work.
func FromEnv(getenv func(string) string) (s Spec, from string, err error) {
	if total := getenv(BazelTotal); total != "" {
		from = BazelTotal + ", " + BazelIndex
		s, err = fromVars(getenv, BazelIndex, BazelTotal, from)
		return s, from, err
	}
	if getenv(JobIndex) != "" {
		from = JobIndex + ", " + TotalVar
		if getenv(TotalVar) == "" {
			return Spec{}, from, fmt.Errorf("%s is set but %s is not: set it to the Indexed Job's completions", JobIndex, TotalVar)
		}
		s, err = fromVars(getenv, JobIndex, TotalVar, from)
		return s, from, err
	}
	return Spec{}, "", nil
}

// fromVars reads the index (from 0) and the total from two variables.
func fromVars(getenv func(string) string, indexVar, totalVar, what string) (Spec, error) {
	num := func(name string) (int, error) {
		v := strings.TrimSpace(getenv(name))
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s=%q: not a whole number", name, getenv(name))
		}
		return n, nil
	}
	total, err := num(totalVar)
	if err != nil {
		return Spec{}, err
	}
	index, err := num(indexVar)
	if err != nil {
		return Spec{}, err
	}
	return New(index, total, fmt.Sprintf("%s=%d, %s=%d", indexVar, index, totalVar, total), "the index counted from 0")
}

// AckBazel touches the file Bazel names in TEST_SHARD_STATUS_FILE, which tells Bazel that the test honours
// sharding; nothing when the variable is unset. An existing file is left as it is (opened for appending, not
// truncated).
func AckBazel(getenv func(string) string) error {
	path := getenv(BazelStatusFile)
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %v", BazelStatusFile, err)
	}
	return f.Close()
}
