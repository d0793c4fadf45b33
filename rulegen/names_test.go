package rulegen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckPackageName(t *testing.T) {
	for name, want := range map[string]string{
		"compiled": "",
		"my_pass2": "",
		"":         "no Go package name given",
		"func":     `"func" is a Go keyword, not a package name`,
		"package":  `"package" is a Go keyword, not a package name`,
		"my-pass":  `"my-pass" is not a Go package name (an ASCII identifier: letters, digits and _, not a digit first)`,
		"2fast":    `"2fast" is not a Go package name (an ASCII identifier: letters, digits and _, not a digit first)`,
		"_":        `"_" is not a Go package name (an ASCII identifier: letters, digits and _, not a digit first)`,
		"paquête":  `"paquête" is not a Go package name (an ASCII identifier: letters, digits and _, not a digit first)`,
	} {
		err := CheckPackageName(name)
		if want == "" {
			assert.NoError(t, err, name)
			continue
		}
		assert.EqualError(t, err, want, name)
	}
}
