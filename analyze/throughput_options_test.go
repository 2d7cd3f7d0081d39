package analyze

import (
	"errors"
	"math"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

func mustAt(t *testing.T, s string) At {
	t.Helper()
	a, err := ParseAt(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Sizes are read as Firebird counts them: 2TB is 2 TiB, 16GB 16 GiB.
func TestParseAt(t *testing.T) {
	for in, want := range map[string]At{
		"2TB":   {Value: 2 << 40, Size: true},
		"16GB":  {Value: 16 << 30, Size: true},
		"16GiB": {Value: 16 << 30, Size: true},
		"1000":  {Value: 1000},
		" ":     {},
	} {
		if got := mustAt(t, in); got != want {
			t.Errorf("ParseAt(%q) = %+v, want %+v", in, got, want)
		}
	}
	if got := mustAt(t, "2TB").String(); got != "2.00 TiB" {
		t.Errorf("2TB reads %q", got)
	}
	for _, bad := range []string{"big", "0GB", "-3", "0", "2XB", "NaN"} {
		if _, err := ParseAt(bad); err == nil {
			t.Errorf("ParseAt(%q): no error", bad)
		}
	}
}

// Where none is asked for, a degradation is predicted at twice the
// largest size and tested for a cliff where the sizes jump 4× with two
// on each side: the seed's 1.7 TB point is alone above its jump.
func TestThroughputDefaults(t *testing.T) {
	r := analyse(t, Options{}, testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	if r.PredictAt == nil || *r.PredictAt != 2*1813.969025 || !r.PredictDefault || r.KneeAt != nil || r.KneeDefault {
		t.Fatalf("predict %v (default %v), knee %v (default %v)", r.PredictAt, r.PredictDefault, r.KneeAt, r.KneeDefault)
	}
	p := model(t, r.Series[0], Power).Prediction
	if p == nil || p.X != 2*1813.969025 {
		t.Fatalf("power prediction %+v", p)
	}
	near(t, "power at 3.54 TiB", p.Y, 148.008, 0.001) // 811.8968 · 3627.94^-0.207665
	if got := r.FormatX(*r.PredictAt); got != "3.54 TiB" {
		t.Errorf("predict at reads %q", got)
	}
	// Asked for: the caller's places, not the defaults.
	r = analyse(t, Options{Predict: mustAt(t, "2TB"), Knee: mustAt(t, "16GB")}, testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	if *r.PredictAt != 2048 || r.PredictDefault || *r.KneeAt != 16 || r.KneeDefault {
		t.Errorf("asked: predict %v (default %v), knee %v (default %v)", *r.PredictAt, r.PredictDefault, *r.KneeAt, r.KneeDefault)
	}
	// A sweep gets neither.
	r = analyse(t, Options{}, testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv"))
	if r.PredictAt != nil || r.KneeAt != nil || len(r.Warnings) != 0 {
		t.Errorf("sweep: predict %v knee %v warnings %v", r.PredictAt, r.KneeAt, r.Warnings)
	}
	for _, c := range []struct {
		xs []float64
		at float64
		ok bool
	}{
		{[]float64{9.04, 10.8, 13, 15.5, 17.3, 19.9, 21.6, 24.2, 26, 28.6, 30.3, 1813.969025}, 0, false},
		{[]float64{1, 2, 4, 16, 32}, 4, true},
		{[]float64{1, 1, 2, 8, 16, 16}, 2, true},
		{[]float64{1, 4, 8, 16}, 0, false},        // one size below the jump
		{[]float64{1, 2, 3, 6, 12, 24}, 0, false}, // no jump of 4×
	} {
		at, ok := DefaultKnee(c.xs)
		if at != c.at || ok != c.ok {
			t.Errorf("DefaultKnee(%v) = %v, %v; want %v, %v", c.xs, at, ok, c.at, c.ok)
		}
	}
	if v := DefaultPredictAt(nil); !math.IsNaN(v) {
		t.Errorf("DefaultPredictAt(nil) = %v", v)
	}
}

// What the caller asked for and the input does not have is an
// OptionError naming the option, never a flag of the command line.
func TestThroughputOptionErrors(t *testing.T) {
	sata := readInput(t, testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	buffers := readInput(t, testutil.Testdata(t, "seeds", "page-buffers-1.7tb.csv"))
	for _, c := range []struct {
		in              Input
		opt             Options
		option, value   string
		msg             string
		wantNotOptional bool
	}{
		{sata, Options{X: "nosuch"}, OptionX, "nosuch", "", false},
		{sata, Options{Y: "ops_per_s,nope"}, OptionY, "nope", "", false},
		{sata, Options{Series: []string{"x1"}}, OptionSeries, "x1", "", false},
		{sata, Options{Table: 3}, OptionTable, "3", "", false},
		{buffers, Options{Predict: mustAt(t, "2TB")}, OptionPredict, "2.00 TiB", "the x values (page_buffers) are not sizes", false},
		{buffers, Options{Knee: mustAt(t, "16GB")}, OptionKnee, "16.0 GiB", "the x values (page_buffers) are not sizes", false},
	} {
		_, err := Throughput(c.in, c.opt)
		var oe *OptionError
		if !errors.Is(err, ErrOption) || !errors.As(err, &oe) || oe.Option != c.option || oe.Value != c.value ||
			(c.msg != "" && oe.Msg != c.msg) {
			t.Errorf("%+v: %v", c.opt, err)
		}
	}
	// A header without a number to plot: the input's fault, with a
	// sentinel so the command line can say how to name a column.
	_, err := Throughput(readString(t, "names.csv", "size_gb,name\n1,x\n2,y\n3,z\n"), Options{})
	if !errors.Is(err, ErrNoColumn) || errors.Is(err, ErrOption) {
		t.Errorf("names only: %v", err)
	}
}

// The baseline is the first configuration: ratio = other / base, and the
// words say which way is better (a restore time that falls is faster).
func TestABDirection(t *testing.T) {
	r := analyse(t, Options{}, testutil.SeedArticle(t, "003"))
	e := r.Series[0].AB[0]
	if e.Direction != Faster || !e.LowerIsBetter {
		t.Errorf("restore: %+v", e)
	}
	near(t, "restore ratio", e.Ratio, 9300.0/14820, 1e-12)
	for _, c := range []struct {
		ratio float64
		lower bool
		want  string
	}{{1.2, false, Faster}, {0.8, false, Slower}, {1.2, true, Slower}, {0.8, true, Faster}, {1, false, Same}} {
		if got := direction(c.ratio, c.lower); got != c.want {
			t.Errorf("direction(%v, lower is better %v) = %s, want %s", c.ratio, c.lower, got, c.want)
		}
	}
}
