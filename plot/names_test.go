package plot

import (
	"strings"
	"testing"
)

// Names clipped to the same MaxSafeName characters stay apart: the
// suffix is made room for, never clipped away.
func TestNamesTakeLongNames(t *testing.T) {
	long := strings.Repeat("a", 70) + ".txt"
	var n Names
	got := []string{n.Take(long), n.Take(long), n.Take(long), n.Take(strings.ToUpper(long))}
	a60 := strings.Repeat("a", 60)
	want := []string{a60, strings.Repeat("a", 58) + "-2", strings.Repeat("a", 58) + "-3", strings.Repeat("A", 58) + "-4"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("take %d: %q, want %q", i+1, got[i], want[i])
		}
		if len(got[i]) > MaxSafeName {
			t.Errorf("take %d: %d characters, over %d", i+1, len(got[i]), MaxSafeName)
		}
	}
	// A clipped stem that would end in '-' or '.' loses it: SafeName
	// leaves the result as it is.
	dashy := strings.Repeat("b", 57) + "-cccccc"
	n.Take(dashy)
	if g := n.Take(dashy); g != strings.Repeat("b", 57)+"-2" {
		t.Errorf("second %q: %q", dashy, g)
	}
	// A name equal to another's suffixed form is suffixed in turn.
	var m Names
	for i, w := range []struct{ in, out string }{{"x", "x"}, {"x-2", "x-2"}, {"x", "x-3"}, {"", "x-4"}} {
		if g := m.Take(w.in); g != w.out {
			t.Errorf("take %d %q: %q, want %q", i+1, w.in, g, w.out)
		}
	}
}

func TestNamesAssignCharts(t *testing.T) {
	long := strings.Repeat("a", 70) + ".txt"
	var n Names
	var files []string
	for _, c := range []*Chart{
		{Kind: KindTables, Name: long}, {Kind: KindTables, Name: long}, {Kind: KindFill, Name: long},
		{Kind: KindTables, Name: long}, {Kind: KindAB}, {Kind: KindAB}, {Kind: KindAB},
	} {
		n.Assign(c)
		files = append(files, c.File())
	}
	a := strings.Repeat("a", 60)
	a58 := strings.Repeat("a", 58)
	want := []string{"tables-" + a + ".png", "tables-" + a58 + "-2.png", "fill-" + a + ".png",
		"tables-" + a58 + "-3.png", "ab.png", "ab-2.png", "ab-3.png"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files\n%q\nwant\n%q", files, want)
	}
}
