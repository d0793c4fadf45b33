package ir

import (
	"embed"
	"fmt"
)

// The catalogs that ship with the engine, in registration order, and the kernel tables of the targets.
//
//go:embed catalog/*.dialect catalog/*.kernels
var catalogFS embed.FS

// DefaultDialects names the embedded catalogs LoadDefaultDialects registers.
var DefaultDialects = []string{"builtin", "cf", "pd_op"}

// LoadDefaultDialects registers the builtin, cf and pd_op catalogs that ship with the engine.
func (c *Context) LoadDefaultDialects() error {
	for _, name := range DefaultDialects {
		path := "catalog/" + name + ".dialect"
		src, err := catalogFS.ReadFile(path)
		if err != nil {
			return fmt.Errorf("embedded catalog %s: %w", path, err)
		}
		if _, err := c.LoadCatalog("ir/"+path, src); err != nil {
			return err
		}
	}
	return nil
}

// DefaultCatalogSource returns the text of an embedded catalog (builtin, cf or pd_op).
func DefaultCatalogSource(name string) ([]byte, error) {
	return catalogFS.ReadFile("catalog/" + name + ".dialect")
}

// NewDefaultContext returns a Context with the default dialects registered.
func NewDefaultContext() (*Context, error) {
	c := NewContext()
	if err := c.LoadDefaultDialects(); err != nil {
		return nil, err
	}
	return c, nil
}

// KernelTableSource returns the path (for positions: ir/catalog/kernels_NAME.kernels) and the text of the kernel
// table of a target kind (gpu, cpu; ir.Target.KernelTable), which package ir/kernels parses.
func KernelTableSource(name string) (path string, src []byte, err error) {
	path = "catalog/kernels_" + name + ".kernels"
	src, err = catalogFS.ReadFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("no kernel table for target %s yet: only GPU targets (gpu:smNN) are checked", name)
	}
	return "ir/" + path, src, nil
}
