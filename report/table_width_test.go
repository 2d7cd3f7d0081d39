package report

import (
	"bytes"
	"testing"
)

// The Korean seed article's series names: Hangul takes two terminal
// columns, and padding by rune count put the next column 6 columns early.
func TestTextColumnsEastAsianWidth(t *testing.T) {
	tb := &Table{Columns: Cols("series", ">points", ">best")}
	tb.Add("Classic, 테스트 포인트", "6", "390 at 1500")
	tb.Add("SuperClassic, 테스트 포인트", "6", "392 at 1500")
	var b bytes.Buffer
	if err := WriteTables(&b, Text, tb); err != nil {
		t.Fatal(err)
	}
	want := "series                       points         best\n" +
		"Classic, 테스트 포인트            6  390 at 1500\n" +
		"SuperClassic, 테스트 포인트       6  392 at 1500\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if w := width("SuperClassic, 테스트 포인트"); w != 27 {
		t.Errorf("width %d, want 27", w)
	}
}
