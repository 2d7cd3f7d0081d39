// Package fbdiag holds the sample inputs embedded in the fbdiag binary, so
// that `fbdiag` with no arguments has something real to analyze on any
// machine: the Firebird 3.0.11 outputs made for this project (testdata/fb30)
// and the seed articles' tables and restore logs (testdata/seeds).
//
// The command itself lives in cmd/fbdiag; its package comment is the manual.
package fbdiag

import "embed"

// Samples holds testdata/fb30 and testdata/seeds.
//
//go:embed testdata/fb30 testdata/seeds
var Samples embed.FS
