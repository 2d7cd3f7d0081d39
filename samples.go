// Package fbdiag holds the sample inputs embedded in the fbdiag binary, so
// that `fbdiag` with no arguments has something real to analyze on any
// machine: the Firebird 3.0.11 outputs made for this project (testdata/fb30)
// and the seed articles' tables and restore logs (testdata/seeds).
//
// The command itself lives in cmd/fbdiag; its package comment is the manual.
package fbdiag

import "embed"

// Samples holds the gstat and gbak outputs of testdata/fb30 (not its
// schema, which is no input) and testdata/seeds.
//
//go:embed testdata/fb30/*.txt testdata/fb30/*.log testdata/seeds
var Samples embed.FS
