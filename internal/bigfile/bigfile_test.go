package bigfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbdiag/fbdiag/parse"
)

func source(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fb30", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A 1 MiB report of the fb30 sample's six tables repeated: every copy is
// read back as real tables with their indices, names unique.
func TestGstat(t *testing.T) {
	var b bytes.Buffer
	n, err := Gstat(&b, source(t, "shop-gstat-a-r.txt"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() < 1<<20 || b.Len() > 1<<20+16<<10 {
		t.Errorf("%d bytes, want about 1 MiB", b.Len())
	}
	reps, err := parse.ReadGstat(&b, "big.txt")
	if err != nil || len(reps) != 1 {
		t.Fatalf("%d reports, %v", len(reps), err)
	}
	tabs := reps[0].Tables
	if len(tabs) != n || n%6 != 0 || n < 600 {
		t.Fatalf("%d tables read, %d written", len(tabs), n)
	}
	seen := map[string]bool{}
	indices := 0
	for _, tb := range tabs {
		if seen[tb.Name] {
			t.Fatalf("table %s twice", tb.Name)
		}
		seen[tb.Name] = true
		indices += len(tb.Indices)
	}
	if tabs[0].Name != "CUSTOMER_00001" || tabs[0].Indices[0].Name != "CUSTOMER_LAST_00001" {
		t.Errorf("first table %s, index %s", tabs[0].Name, tabs[0].Indices[0].Name)
	}
	// The sample's six tables have ten indices.
	if indices != n/6*10 {
		t.Errorf("%d indices for %d copies of the sample's ten", indices, n/6)
	}
}

// A restore log of about 1 MiB: the data section repeated, times
// increasing, the tail shifted after it.
func TestGbakRestore(t *testing.T) {
	var b bytes.Buffer
	n, err := GbakRestore(&b, source(t, "shop-gbak-restore-v-st.log"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	log, err := parse.ReadGbak(&b, "big.log")
	if err != nil {
		t.Fatal(err)
	}
	tables := 0
	for _, l := range log.Lines {
		if l.Kind == parse.GbakData {
			tables++
		}
	}
	if tables != n || n < 100 {
		t.Errorf("%d tables read, %d written", tables, n)
	}
}

func TestShape(t *testing.T) {
	if _, err := Gstat(&bytes.Buffer{}, []byte("Database header page information:\n"), 100); err != ErrShape {
		t.Errorf("gstat -h: %v", err)
	}
	if _, err := GbakRestore(&bytes.Buffer{}, []byte("gbak: nothing\n"), 100); err != ErrShape {
		t.Errorf("no tables: %v", err)
	}
}

// From 10000 s on gbak's time is wider than its four digits, and the
// blank after "gbak:" stays: a shifted line must read as statistics, not
// as a message (the 100 MiB log's lines after 2:46:40 did, 1.57 million
// steps of unknown cost).
func TestShiftGbakWide(t *testing.T) {
	l := []byte("gbak:    3.747  0.001      0      0 restoring data for table ORDER_LINE\n")
	for _, c := range []struct {
		off  float64
		want string
	}{
		{0, "gbak:    3.747  0.001      0      0 restoring data for table ORDER_LINE\n"},
		{9990, "gbak: 9993.747  0.001      0      0 restoring data for table ORDER_LINE\n"},
		{60000, "gbak: 60003.747  0.001      0      0 restoring data for table ORDER_LINE\n"},
		{600000, "gbak: 600003.747  0.001      0      0 restoring data for table ORDER_LINE\n"},
	} {
		got := shiftGbak(l, c.off)
		if string(got) != c.want {
			t.Errorf("+%g: %q, want %q", c.off, got, c.want)
		}
		log, err := parse.ReadGbak(bytes.NewReader(append([]byte("gbak: time     delta  reads  writes\n"), got...)), "x.log")
		if err != nil || len(log.Lines) != 1 || log.Lines[0].Kind != parse.GbakData || log.Lines[0].Time != 3.747+c.off {
			t.Errorf("+%g: read back as %+v, %v", c.off, log.Lines, err)
		}
	}
}
