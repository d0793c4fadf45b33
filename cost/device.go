package cost

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pirdrr/drr/ir"
)

// Figure is one constant of a device profile with the source it comes from.
type Figure struct {
	Value  float64 `json:"value"`
	Source string  `json:"source"`
}

// Device is a device profile: the peak rates and the memory bandwidth the time estimate divides by, and the fixed
// cost of starting a kernel. Profiles are data (devices.json, embedded); every figure names its source.
type Device struct {
	// Name is what -device takes: a100, h100, v100, t4, cpu-avx2.
	Name string `json:"name"`
	// Title says which part the figures are for.
	Title string `json:"title"`
	// Kind is "gpu" or "cpu".
	Kind string `json:"kind"`
	// MemoryBandwidth is in bytes per second, LaunchOverhead in seconds per kernel.
	MemoryBandwidth Figure `json:"memory_bandwidth"`
	LaunchOverhead  Figure `json:"launch_overhead"`
	// Vector are the peak FLOP/s of the general-purpose units (CUDA cores, a CPU core's SIMD units) per element
	// type, by the type's Paddle name (float32, float16, …); Matrix those of the matrix units (tensor cores) that
	// matrix products and convolutions use. See Device.Rate for the fallbacks.
	Vector map[string]Figure `json:"vector"`
	Matrix map[string]Figure `json:"matrix"`
}

// Unit is the kind of arithmetic an op does, which decides the peak rate its FLOPs run at.
type Unit uint8

const (
	// Vector is element-wise, reduction and data-movement work: the general-purpose units.
	Vector Unit = iota
	// Matrix is matrix products and convolutions: the matrix units where the device has them for the type.
	Matrix
)

// String names the unit: "vector" or "matrix".
func (u Unit) String() string {
	if u == Matrix {
		return "matrix"
	}
	return "vector"
}

// Rate returns the peak FLOP/s for work on unit in element type dt: the matrix rate of dt for Matrix work when
// the device lists one, else the vector rate of dt, else the float32 vector rate (an integer or narrow type
// without a listed rate runs at the float32 rate; float32 matrix products are not counted at the TF32 tensor-core
// rate, which Paddle enables only by flag).
func (d *Device) Rate(u Unit, dt ir.DType) float64 {
	name := dt.DataTypeName()
	if u == Matrix {
		if f, ok := d.Matrix[name]; ok {
			return f.Value
		}
	}
	if f, ok := d.Vector[name]; ok {
		return f.Value
	}
	return d.Vector["float32"].Value
}

//go:embed devices.json
var devicesJSON []byte

// Devices returns the built-in device profiles, sorted by name.
func Devices() []*Device {
	ds, err := parseDevices(devicesJSON, "devices.json")
	if err != nil {
		panic(err) // the embedded file is checked by the package's tests
	}
	return ds
}

// DefaultDevice is the device reports use when none is named.
const DefaultDevice = "a100"

// LookupDevice returns the built-in profile called name, or reads a profile from a JSON file (one device object,
// or {"devices": [...]} holding one) when name ends in .json.
func LookupDevice(name string) (*Device, error) {
	if strings.HasSuffix(name, ".json") {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ds, err := parseDevices(data, name)
		if err != nil {
			return nil, err
		}
		if len(ds) != 1 {
			return nil, fmt.Errorf("%s: holds %d devices, want one", name, len(ds))
		}
		return ds[0], nil
	}
	var names []string
	for _, d := range Devices() {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return nil, fmt.Errorf("unknown device %q (known: %s, or a profile.json)", name, strings.Join(names, ", "))
}

// parseDevices reads and checks device profiles: every figure positive and sourced, a float32 vector rate present.
func parseDevices(data []byte, file string) ([]*Device, error) {
	var list struct {
		Devices []*Device `json:"devices"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if strings.Contains(string(data), `"devices"`) {
		if err := dec.Decode(&list); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	} else {
		var d Device
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		list.Devices = []*Device{&d}
	}
	seen := map[string]bool{}
	for _, d := range list.Devices {
		if err := d.check(); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		if seen[d.Name] {
			return nil, fmt.Errorf("%s: device %s is defined twice", file, d.Name)
		}
		seen[d.Name] = true
	}
	sort.Slice(list.Devices, func(i, j int) bool { return list.Devices[i].Name < list.Devices[j].Name })
	return list.Devices, nil
}

func (d *Device) check() error {
	if d.Name == "" {
		return fmt.Errorf("a device has no name")
	}
	if d.Kind != "gpu" && d.Kind != "cpu" {
		return fmt.Errorf("device %s: kind %q is neither gpu nor cpu", d.Name, d.Kind)
	}
	figure := func(what string, f Figure) error {
		if !(f.Value > 0) {
			return fmt.Errorf("device %s: %s must be positive (is %g)", d.Name, what, f.Value)
		}
		if strings.TrimSpace(f.Source) == "" {
			return fmt.Errorf("device %s: %s has no source", d.Name, what)
		}
		return nil
	}
	if err := figure("memory_bandwidth", d.MemoryBandwidth); err != nil {
		return err
	}
	if err := figure("launch_overhead", d.LaunchOverhead); err != nil {
		return err
	}
	if _, ok := d.Vector["float32"]; !ok {
		return fmt.Errorf("device %s: no float32 vector rate (the rate every other type falls back to)", d.Name)
	}
	for _, table := range []struct {
		name  string
		rates map[string]Figure
	}{{"vector", d.Vector}, {"matrix", d.Matrix}} {
		for dt, f := range table.rates {
			if _, ok := ir.DTypeFromDataType(dt); !ok {
				return fmt.Errorf("device %s: %s rate for unknown type %q", d.Name, table.name, dt)
			}
			if err := figure(table.name+" "+dt, f); err != nil {
				return err
			}
		}
	}
	return nil
}
