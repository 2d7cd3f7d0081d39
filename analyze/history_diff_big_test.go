package analyze

import (
	"bytes"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// Diff matches indices by name in a map; it also looked, for each index
// added or dropped, whether the other run had any index at all by
// listing them all: quadratic. Two 4 MiB runs of 5,250 indices, every
// index renamed in the second (a restore that renamed them, or another
// database), took 2 s to diff that way (10 MiB: 12.5 s, 100 MiB: a
// quarter of an hour); now a few milliseconds.
func TestDiffRenamedIndicesLinear(t *testing.T) {
	_, data := testutil.BigGstat(t, 4<<20)
	renamed := bytes.ReplaceAll(data, []byte("\n    Index "), []byte("\n    Index X"))
	before, after := snapshotText(t, "before.txt", string(data)), snapshotText(t, "after.txt", string(renamed))
	start := time.Now()
	d := Diff(before, after)
	took := time.Since(start)
	_, added := d.Count(StatusAdded)
	_, dropped := d.Count(StatusDropped)
	tables, _ := d.Count(StatusUnchanged)
	if added != 5250 || dropped != 5250 || tables != 3150 {
		t.Fatalf("%d indices added, %d dropped, %d tables unchanged; want 5250, 5250, 3150", added, dropped, tables)
	}
	if took > time.Second && !testutil.Race {
		t.Errorf("Diff took %v: not linear in the indices", took)
	}
}
