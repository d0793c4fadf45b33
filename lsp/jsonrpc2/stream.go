package jsonrpc2

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxMessageSize bounds the body of one message (a Content-Length beyond it is a malformed header): 256 MiB, far
// more than any rule file an editor sends.
const MaxMessageSize = 256 << 20

// HeaderError reports a header block that does not frame a message: no Content-Length, or one that is not a
// number. The reader has consumed the block; the next message is read after it.
type HeaderError struct {
	Msg string
}

// Error describes what is wrong with the header.
func (e *HeaderError) Error() string { return "malformed message header: " + e.Msg }

// ReadMessage reads one message: a header block ("Name: value" lines ending with an empty line; Content-Length is
// required, Content-Type is accepted and ignored) and a body of Content-Length bytes. Lines end with "\r\n" (a
// bare "\n" is accepted too). It returns io.EOF at the end of the input between messages, a *HeaderError for a
// header block that frames nothing (the caller may read on), and io.ErrUnexpectedEOF when the input ends inside a
// message.
func ReadMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	var problem string
	started := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && !started && line == "" {
				return nil, io.EOF
			}
			if err == io.EOF {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !started {
				continue // blank lines between messages
			}
			break
		}
		started = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			problem = fmt.Sprintf("header line %q is not 'Name: value'", truncate(line))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > MaxMessageSize {
				problem = fmt.Sprintf("bad Content-Length %q", truncate(strings.TrimSpace(value)))
				continue
			}
			length = n
		}
	}
	if length < 0 {
		if problem == "" {
			problem = "no Content-Length"
		}
		return nil, &HeaderError{Msg: problem}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// WriteMessage writes body as one message with its Content-Length header, in one Write (so that writers sharing
// a pipe cannot interleave inside a message).
func WriteMessage(w io.Writer, body []byte) error {
	msg := fmt.Appendf(make([]byte, 0, len(body)+32), "Content-Length: %d\r\n\r\n", len(body))
	_, err := w.Write(append(msg, body...))
	return err
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
