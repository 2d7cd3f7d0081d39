package analyze

import (
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// The pgbench 15 trace holds five runs, all "scaling factor: 2", with 4
// or 2 clients: they were read as a degradation against scale with one
// size, every fit failing. A size key that does not vary is no x.
func TestRunsConstantScaleIsNoDegradation(t *testing.T) {
	data, err := os.ReadFile(testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Throughput(readString(t, "trace.txt", string(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeAB || len(r.Series) != 1 || len(r.Series[0].Points) != 5 {
		t.Fatalf("mode %s, %d series", r.Mode, len(r.Series))
	}
	var ys []float64
	for _, p := range r.Series[0].Points {
		ys = append(ys, p.Y)
	}
	want := []float64{1349.556154, 973.127095, 1097.994770}
	for i, w := range want {
		near(t, "tps", ys[i], w, 1e-6)
	}
	// --x clients makes it the sweep it is.
	r, err = Throughput(readString(t, "trace.txt", string(data)), Options{X: "clients"})
	if err != nil || r.Mode != ModeSweep {
		t.Fatalf("--x clients: %v, %+v", err, r)
	}
}
