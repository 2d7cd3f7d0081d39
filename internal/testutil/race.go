//go:build race

package testutil

// Race is whether the race detector is on: it runs code several times
// slower, so that a test's bound on a run's time means nothing then.
const Race = true
