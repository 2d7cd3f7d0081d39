package view

import (
	"bytes"
	"strings"
	"testing"
)

// A text cell, and a finding's object, message and advice, are clipped
// to HTMLTextWidth columns in HTML: the index name of a gbak log with a
// line of 1.5 MB inserted in it was a megabyte in four tables of the
// report's page (4.2 MB). Names of a real size are written whole.
func TestHTMLClipsLongText(t *testing.T) {
	long := "INDMF_" + strings.Repeat("x", 1<<20)
	d := &Doc{
		Tables: []*Table{{Name: "steps", Columns: []Column{{Key: "step", Title: "step"}, {Key: "note", Title: "note"}},
			Rows: [][]Cell{{Str("index " + long), Str("RDB$PRIMARY2")}}}},
		Findings: []Finding{{Severity: "warning", Rule: "gbak-slow-step", Object: long, Message: "index " + long + " took 615 s", Advice: long}},
	}
	var b bytes.Buffer
	if err := Write(&b, HTML, Options{}, d); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// "index " + the name: the table's cell and the finding's message;
	// the name alone: the finding's object and advice.
	inStep := "index INDMF_" + strings.Repeat("x", HTMLTextWidth-len("index INDMF_")-1) + "…"
	alone := "INDMF_" + strings.Repeat("x", HTMLTextWidth-len("INDMF_")-1) + "…"
	if !strings.Contains(page, "<bdi>"+inStep+"</bdi>") || strings.Count(page, inStep) != 2 {
		t.Errorf("the long cell and message: %d clipped copies, want 2, one in a cell", strings.Count(page, inStep))
	}
	if n := strings.Count(page, alone); n != 2 {
		t.Errorf("the finding's object and advice: %d clipped copies, want 2", n)
	}
	if !strings.Contains(page, "<bdi>RDB$PRIMARY2</bdi>") {
		t.Error("a short cell is not written whole")
	}
	if len(page) > 8*HTMLTextWidth {
		t.Errorf("a page of %d bytes", len(page))
	}
}
