package drrcli

import (
	"bufio"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeBadArguments(t *testing.T) {
	code, _, stderr := run(t, "", "serve", "-addr", "127.0.0.1:99999")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "drrc serve:")
	code, _, stderr = run(t, "", "serve", "-addr", "127.0.0.1:0", filepath.Join(t.TempDir(), "missing.drr"))
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, "missing.drr")
}

// TestServe starts drrc serve on a free loopback port, fetches the page and the API, and stops it with an
// interrupt as Ctrl+C does.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "mine.drr", "rule r { match { %y = pd_op.relu(%x) } rewrite { replace %y with %x } }\n")
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var stderr strings.Builder
	go func() {
		c := &CLI{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr}
		done <- c.Run([]string{"serve", "-addr", "127.0.0.1:0", dir})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, "drrc serve printed no address")
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	base := "http://" + m[1]

	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	code, page := get("/")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, page, "drrc playground")
	code, info := get("/api/info")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, info, `"name":"`+filepath.Base(dir)+`/mine.drr"`)

	// Serving started after the interrupt was caught: Ctrl+C stops the server, not the test.
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGINT))
	select {
	case code := <-done:
		assert.Equal(t, exitOK, code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("drrc serve did not stop on an interrupt")
	}
}
