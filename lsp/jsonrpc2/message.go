package jsonrpc2

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Error codes of JSON-RPC 2.0 and of the Language Server Protocol.
const (
	CodeParseError           = -32700 // the message is not JSON
	CodeInvalidRequest       = -32600 // the JSON is not a request
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002 // LSP: a request before initialize
	CodeRequestFailed        = -32803 // LSP 3.17: the request is valid but failed
	CodeServerCancelled      = -32802 // LSP 3.17: the server cancelled the request
	CodeContentModified      = -32801 // LSP: the document changed, the result would be stale
	CodeRequestCancelled     = -32800 // LSP: the client cancelled the request ($/cancelRequest)
)

// Error is a JSON-RPC error object; handlers return one to choose the code of a failed request.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ID is the id of a request: a JSON number or string, kept as written. The zero ID (no id) marks a notification.
type ID struct {
	raw string
}

// IntID returns the ID of a number.
func IntID(n int64) ID { return ID{raw: fmt.Sprint(n)} }

// IsZero reports whether there is no id.
func (id ID) IsZero() bool { return id.raw == "" }

// String returns the id as written in JSON.
func (id ID) String() string { return id.raw }

// MarshalJSON writes the id as it was read (null when zero).
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON accepts a number or a string; null leaves the id zero.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*id = ID{}
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v.(type) {
	case float64, string:
		id.raw = string(b)
		return nil
	}
	return fmt.Errorf("id must be a number or a string, not %s", b)
}

// wireMessage is any message as read: a request, a notification or a response.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// requestOut is a request or notification as written.
type requestOut struct {
	JSONRPC string `json:"jsonrpc"`
	ID      *ID    `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// resultOut is a successful response as written (the result may be null).
type resultOut struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      ID              `json:"id"`
	Result  json.RawMessage `json:"result"`
}

// errorOut is a failed response as written.
type errorOut struct {
	JSONRPC string `json:"jsonrpc"`
	ID      ID     `json:"id"`
	Error   *Error `json:"error"`
}

// Request is a request or notification received.
type Request struct {
	ID     ID // zero for a notification
	Method string
	Params json.RawMessage
}

// IsNotification reports whether no response is expected.
func (r *Request) IsNotification() bool { return r.ID.IsZero() }
