package editors

import (
	"os"
	"testing"

	"github.com/pirdrr/drr/drrcli"
	"github.com/pirdrr/drr/internal/golden"
)

// envServer, set in the environment of an editor the tests start, makes the test binary run as drrc (the editor
// starts it as its language server: test-binary lsp), so that the editors talk to the drrc of this checkout.
const envServer = "DRR_EDITORS_TEST_AS_DRRC"

func TestMain(m *testing.M) {
	if os.Getenv(envServer) == "1" {
		os.Exit(drrcli.Main(nil))
	}
	golden.Register()
	os.Exit(m.Run())
}
