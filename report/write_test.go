package report

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

func TestWriteBuildsTablesOnlyWhenAsked(t *testing.T) {
	built := 0
	tables := func() []*Table {
		built++
		tb := &Table{Name: "t", Columns: Cols("item", ">value")}
		tb.Add("page size", "8192")
		return []*Table{tb}
	}
	var b bytes.Buffer
	if err := Write(&b, JSON, map[string]int{"page_size": 8192}, tables); err != nil {
		t.Fatal(err)
	}
	if built != 0 || b.String() != "{\n  \"page_size\": 8192\n}\n" {
		t.Errorf("JSON built tables %d times, wrote %q", built, b.String())
	}
	b.Reset()
	if err := Write(&b, CSV, nil, tables); err != nil {
		t.Fatal(err)
	}
	if built != 1 || b.String() != "table,item,value\nt,page size,8192\n" {
		t.Errorf("CSV: built %d times, wrote %q", built, b.String())
	}
}

func TestWriteNotices(t *testing.T) {
	var b bytes.Buffer
	WriteNotices(&b, "fbdiag: notice: ", []parse.Notice{
		{File: "restore.log", Line: 12, Msg: "wrapped counter repaired"},
		{File: "<stdin>", Msg: "no header line"},
	})
	if want := "fbdiag: notice: restore.log:12: wrapped counter repaired\nfbdiag: notice: <stdin>: no header line\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
