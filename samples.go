// Package fbdiag holds the sample inputs embedded in the fbdiag binary, so
// that `fbdiag` with no arguments has something real to analyze on any
// machine: the Firebird 3.0.11 outputs made for this project (testdata/fb30),
// the seed articles' tables and restore logs (testdata/seeds) and a fbdiag
// bench run on the same server (testdata/bench/run-w1-t4.jsonl).
//
// The command itself lives in cmd/fbdiag; its package comment is the manual.
package fbdiag

import "embed"

// Samples holds the gstat and gbak outputs of testdata/fb30 (not its
// schema, which is no input), testdata/seeds and one bench run.
//
//go:embed testdata/fb30/*.txt testdata/fb30/*.log testdata/seeds testdata/bench/run-w1-t4.jsonl
var Samples embed.FS
