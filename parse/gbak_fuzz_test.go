package parse

import (
	"bytes"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// FuzzGbak feeds the reader arbitrary text seeded from the real logs: it
// must never panic, must number lines in order and must keep statistics
// only for the columns in force.
func FuzzGbak(f *testing.F) {
	for _, p := range [][]string{
		{"fb30", "shop-gbak-restore-v-st.log"},
		{"fb30", "shop-gbak-backup-v-st.log"},
		{"seeds", "restore-balanced.log"},
		{"seeds", "restore-high-performance.log"},
	} {
		data := testutil.ReadTestdata(f, p...)
		f.Add(data)
	}
	f.Add([]byte("gbak: writes\ngbak:      0 opened file x.fbk\ngbak:   3087 total statistics\n"))
	f.Add([]byte("gbak:cannot commit index PK\ngbak: ERROR:violation\ngbak: ERROR:    key\ngbak:Exiting before completion due to errors\n"))
	// fbdiag restore's lines after gbak's: a line the driver cut short
	// (GbakCut), the database kept apart (GbakKeptAs).
	f.Add([]byte("gbak: ERROR:violation\n" + GbakCut + "\"gbak: ERROR:    Problematic key val\"\ngbak:Exiting before completion due to errors\n" + GbakKeptAs + "/d/.x.fdb.failed-1\n" + GbakUntouched + "\n" + GbakRemoved + "\n"))
	f.Add([]byte("gbak:  558.685 210.210 11132156   6476 1072223 records written\n"))
	f.Add([]byte("gbak:    0.976  0.000 18446744073709550696 18446744073709551615     writing domain RDB$1\n"))
	// An excerpt as it is, with lone CRs, huge numbers and long names.
	for _, s := range testutil.FuzzSeeds(f, testutil.GbakSeed) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewGbakReader(bytes.NewReader(data), "fuzz")
		prev := 0
		for rd.Next() {
			l := rd.Line()
			if l.Line <= prev {
				t.Fatalf("line %d after %d", l.Line, prev)
			}
			prev = l.Line
			if l.Has&^rd.Columns() != 0 {
				t.Fatalf("line %d has %s outside columns %s", l.Line, l.Has, rd.Columns())
			}
			if l.Kind == "" {
				t.Fatalf("line %d without kind", l.Line)
			}
		}
		if len(rd.Notices()) > maxGbakNotices+1 {
			t.Fatalf("%d notices", len(rd.Notices()))
		}
	})
}
