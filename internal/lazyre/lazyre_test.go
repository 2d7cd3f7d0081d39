package lazyre

import "testing"

// An expression compiles on the first call and once only; Check finds an
// expression that does not compile without calling it.
func TestNew(t *testing.T) {
	n := Count()
	re := New(`^tps = ([0-9.]+)`)
	first := re()
	if re() != first {
		t.Error("a second call compiled the expression again")
	}
	if m := first.FindStringSubmatch("tps = 1234.5 (without initial"); len(m) != 2 || m[1] != "1234.5" {
		t.Errorf("match %q, want the tps 1234.5", m)
	}
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	New(`(unclosed`)
	if Count() != n+2 {
		t.Errorf("Count %d, want %d", Count(), n+2)
	}
	if err := Check(); err == nil {
		t.Error("Check passed an expression that does not compile")
	}
}
