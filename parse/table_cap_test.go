package parse

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// TestReadTablesRowCap: the real seed table's rows repeated past
// MaxTableRows are read up to it; the rest is counted in one notice.
func TestReadTablesRowCap(t *testing.T) {
	seed := testutil.ReadTestdata(t, "seeds", "degradation-throughput-sata.csv")
	head, body, _ := bytes.Cut(seed, []byte("\n"))
	rows := bytes.Count(body, []byte("\n"))
	var b bytes.Buffer
	b.Write(head)
	b.WriteByte('\n')
	reps := MaxTableRows/rows + 2
	for range reps {
		b.Write(body)
	}
	tables, notes, err := ReadTables(&b, "big.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || len(tables[0].Rows) != MaxTableRows || len(tables[0].Columns[2].Values) != MaxTableRows {
		t.Fatalf("%d tables, rows %d", len(tables), len(tables[0].Rows))
	}
	want := fmt.Sprintf("big.csv:1: table of %d rows: read the first 100000, left out %d (a throughput table has tens)",
		reps*rows, reps*rows-MaxTableRows)
	if len(notes) != 1 || notes[0].String() != want {
		t.Errorf("notices %v, want %q", notes, want)
	}
}
