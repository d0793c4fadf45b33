// Package playground is the server of drrc serve: a local web page for writing DRR rules against real programs
// and seeing, at once, what they match and what they make of the graph.
//
// A Server is an http.Handler. It serves the page (assets/, embedded: nothing is loaded from the network) and a
// JSON API:
//
//   - GET /api/info: the samples, the files the server may read, the passes and the limits.
//   - GET /api/source?name=N: a rule file of the catalogue or a shipped set, for the editor.
//   - POST /api/program, POST /api/upload: a program (sample, file, upload or text) as PIR text; an uploaded
//     .pir, .json or zip of GraphNet graph folders.
//   - POST /api/run: the editor's rules (and passes) applied to a copy of a program. A run records a stage per
//     pass (the program before the first pass and after each), the statistics of every pass and rule, and the
//     matches of the editor's rules with the pattern line that bound each op. It is kept (a bounded number of ops
//     of runs) for the requests that look into it: GET /api/runs/{id}/stages/{k} (a stage's text and its diff),
//     GET /api/runs/{id}/graph (a stage laid out by graphview, matched or added and removed ops marked),
//     POST /api/runs/{id}/explain (matcher.Explain of every rule at an op) and POST /api/runs/{id}/verify (the
//     interpreter's per-output error table, one run at a time, streamed as JSON lines on request, in verify.go:
//     the one file that calls package interp). Values are named by stable ids across the stages (stable.go): a
//     value keeps its id of the input through every pass, one a pass created gets an id above them.
//   - /api/lsp: a session of the language server (package lsp, the engine of drrc lsp) per editor, reached over
//     HTTP: JSON-RPC messages POSTed in batches, the server's messages back as server-sent events.
//
// Safety is part of the model. The server reads only the files given (Options.Files): the page names them by
// catalogue names, never by paths, and links that lead out of a folder are refused when listed and when read.
// It answers loopback host names only unless Options.Public, and refuses POSTs from other origins. Runs,
// verifications and drawings pass a gate (Limits.Concurrent at once, Limits.Queue waiting), and each run has a
// time budget (a context the driver looks at between ops) and a memory budget (the ops it may add, counted by
// a listener): past either it stops with the reason reported and the server lives on. Uploads are bounded in
// size, in what a zip unpacks to and in its entries; zip entries with .., absolute paths or links are refused.
package playground
