package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// TargetKind is the kind of device a program is rewritten for.
type TargetKind uint8

// The kinds of target. The zero value is NoTarget: nothing says where the program will run.
const (
	NoTarget TargetKind = iota
	// CPUTarget is Paddle's CPU backend.
	CPUTarget
	// GPUTarget is an NVIDIA GPU of a given compute capability (Target.SM).
	GPUTarget
)

// Target is the device a program is rewritten for, one value for every command and pass that depends on it: drrc's
// -target flag (gpu:sm80, cpu), the rule-set parameter sm_version it sets (Target.SMVersion), and the kernel table
// the kernel check reads (ir/kernels). The zero Target is "no target": rule sets keep their defaults and there is
// nothing to check kernels against.
type Target struct {
	Kind TargetKind
	// SM is the compute capability of a GPU target as Paddle writes it (major·10 + minor: 80 for an A100, 86 for
	// an RTX 30x0); 0 for other kinds.
	SM int
}

// ComputeCapabilities are the compute capabilities of NVIDIA GPUs that a gpu:smNN target may name, oldest first
// (CUDA's list of real architectures from Maxwell on: sm_50 … sm_120).
var ComputeCapabilities = []int{50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 120, 121}

// TargetSyntax says how a target is written, for usage messages.
const TargetSyntax = "cpu, or gpu:smNN with NN the GPU's compute capability (gpu:sm80 for an A100, gpu:sm86 for an RTX 3090)"

// GPU returns the target of a GPU of compute capability sm. It does not check that sm is known.
func GPU(sm int) Target { return Target{Kind: GPUTarget, SM: sm} }

// CPU returns Paddle's CPU target.
func CPU() Target { return Target{Kind: CPUTarget} }

// ParseTarget parses a target as drrc's -target flag takes it: "cpu" or "gpu:smNN" (NN one of
// ComputeCapabilities). The empty string is the zero Target. The error says what was wrong and how to write it.
func ParseTarget(s string) (Target, error) {
	switch s {
	case "":
		return Target{}, nil
	case "cpu":
		return CPU(), nil
	case "gpu":
		return Target{}, fmt.Errorf("target %q names no GPU architecture: write gpu:smNN (gpu:sm80 for an A100)", s)
	}
	kind, arch, ok := strings.Cut(s, ":")
	if !ok || kind != "gpu" {
		return Target{}, fmt.Errorf("unknown target %q: write %s", s, TargetSyntax)
	}
	digits, ok := strings.CutPrefix(arch, "sm")
	if !ok {
		return Target{}, fmt.Errorf("target %q: the GPU architecture is written smNN (gpu:sm80), not %q", s, arch)
	}
	digits = strings.TrimPrefix(digits, "_")
	sm, err := strconv.Atoi(digits)
	if err != nil || digits == "" || digits[0] == '+' || digits[0] == '-' {
		return Target{}, fmt.Errorf("target %q: the GPU architecture is written smNN with NN the compute capability in digits (gpu:sm80)", s)
	}
	if !knownSM(sm) {
		return Target{}, fmt.Errorf("target %q: sm%d is not the compute capability of an NVIDIA GPU (known: %s)", s, sm, smList())
	}
	return GPU(sm), nil
}

func knownSM(sm int) bool {
	for _, c := range ComputeCapabilities {
		if c == sm {
			return true
		}
	}
	return false
}

func smList() string {
	parts := make([]string, len(ComputeCapabilities))
	for i, c := range ComputeCapabilities {
		parts[i] = "sm" + strconv.Itoa(c)
	}
	return strings.Join(parts, ", ")
}

// String writes the target as ParseTarget reads it ("" for the zero Target).
func (t Target) String() string {
	switch t.Kind {
	case CPUTarget:
		return "cpu"
	case GPUTarget:
		return "gpu:sm" + strconv.Itoa(t.SM)
	}
	return ""
}

// IsZero reports whether t is the zero Target (no target).
func (t Target) IsZero() bool { return t.Kind == NoTarget }

// SMVersion is the value t gives the rule-set parameter sm_version (Paddle's sm_version: the compute capability of
// the GPU a pass runs on): SM for a GPU target, 0 — no GPU — otherwise.
func (t Target) SMVersion() int64 {
	if t.Kind == GPUTarget {
		return int64(t.SM)
	}
	return 0
}

// KernelTable names the kernel table of ir/catalog the target reads ("gpu", "cpu"; "" for no target).
func (t Target) KernelTable() string {
	switch t.Kind {
	case CPUTarget:
		return "cpu"
	case GPUTarget:
		return "gpu"
	}
	return ""
}
