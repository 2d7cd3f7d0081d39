package testutil

import (
	"slices"
	"strings"
	"testing"
)

// EqualLines fails t, naming what, unless got and want are the same
// lines in the same order; the message shows both a line each.
func EqualLines(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
