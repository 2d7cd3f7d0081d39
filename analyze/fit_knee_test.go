package analyze

import (
	"math"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// sata30 is the seed article's first throughput table: the eleven
// databases from 9.04 to 30.3 GB, before the 1.7 TB one.
func sata30(t *testing.T, opt Options) *Series {
	t.Helper()
	tables := readInput(t, testutil.SeedArticle(t, "000")).Tables
	r, err := Throughput(Input{Tables: tables[1:2]}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 1 || len(r.Series[0].Points) != 11 {
		t.Fatalf("series %+v", r.Series)
	}
	return r.Series[0]
}

// On 9–30 GB the log-linear trend has a step at 16 GB (the RAM) that the
// F-test finds (p = 0.0017), but it is 4.3 % of the trend: the article saw
// "no big drop" past the RAM, and fbdiag does not call it a cliff.
func TestKneeSmallStepIsNoCliff(t *testing.T) {
	s := sata30(t, Options{Knee: mustAt(t, "16GB")})
	k := s.Knee
	if k == nil {
		t.Fatalf("no knee test: %v", s.Warnings)
	}
	if k.Model != LogLinear || k.Below != 4 || k.Above != 7 || !k.Significant || k.Cliff || k.MinCliff != 0.10 {
		t.Errorf("knee %+v", k)
	}
	near(t, "p", k.P, 0.00167, 0.00001) // F = 21.53 on 1 and 8 degrees of freedom
	near(t, "step", k.StepFraction, -0.0434, 0.0001)
	want := "no cliff at 16.0 GiB: a step of -4.3 % beyond the loglinear trend is significant (p=0.002) " +
		"but smaller than the 10.0 % a cliff needs"
	if k.Verdict != want {
		t.Errorf("verdict\n%s\nwant\n%s", k.Verdict, want)
	}
	// No size of 9–30 GB weighs more in its own fitted value than the
	// others together: the largest leverage is 9.04 GB's 0.40.
	for _, m := range s.Models {
		if len(m.HighLeverage) != 0 || len(m.Leverage) != 11 {
			t.Errorf("%s: leverage %v, high %v", m.Name, m.Leverage, m.HighLeverage)
		}
	}
	near(t, "loglinear leverage at 9.04 GB", s.Models[1].Leverage[0], 0.402, 0.001)
	if len(k.HighLeverage) != 0 {
		t.Errorf("knee high leverage %v", k.HighLeverage)
	}
}

// A 30 % drop put into the seed's figures above 16 GB is a cliff (the
// 1.7 TB point is among them, and named).
func TestKneeCliffNeedsSizeAndP(t *testing.T) {
	y := make([]float64, len(sataY))
	for i := range sataY {
		y[i] = sataY[i]
		if sataX[i] > 16 {
			y[i] *= 0.7
		}
	}
	k, err := KneeTest(sataX, y, 16, Power)
	if err != nil {
		t.Fatal(err)
	}
	k.Describe(parse.SizeUnits[3], false)
	if !k.Significant || !k.Cliff {
		t.Errorf("knee %+v", k)
	}
	want := "cliff at 16.0 GiB: a step of -29.5 % beyond the power trend (p<0.001), past the 10.0 % a cliff needs; " +
		"the 1.77 TiB point has leverage 0.979 (above 0.5): it alone sets the trend"
	if k.Verdict != want {
		t.Errorf("verdict %q, want %q", k.Verdict, want)
	}
	// The same step upwards is no cliff: throughput got better.
	for i := range y {
		if sataX[i] > 16 {
			y[i] = sataY[i] * 1.3
		}
	}
	if k, err = KneeTest(sataX, y, 16, Power); err != nil {
		t.Fatal(err)
	}
	k.Describe(parse.SizeUnits[3], false)
	if !k.Significant || k.Cliff || !strings.HasPrefix(k.Verdict, "no cliff at 16.0 GiB: a step of +31.0 % beyond the power trend (p<0.001) is an improvement;") {
		t.Errorf("rise: %+v", k)
	}
	// For times (lower is better) the rise is the cliff.
	k.Describe(parse.SizeUnits[3], true)
	if !k.Cliff {
		t.Errorf("a 27%% longer time is no cliff: %+v", k)
	}
}

// With the 1.7 TB database the fits are the far point's: in ln(size) its
// leverage is 0.929 (0.9998 on the linear size axis), above 0.5, so it
// weighs more in its own fitted value than the eleven others together.
func TestLeverageFarPoint(t *testing.T) {
	r := analyse(t, Options{Knee: mustAt(t, "16GB")}, testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv"))
	s := r.Series[0]
	want := map[string]float64{Linear: 0.99984, LogLinear: 0.929, Power: 0.929}
	for _, m := range s.Models {
		if len(m.HighLeverage) != 1 || m.HighLeverage[0].X != 1813.969025 {
			t.Fatalf("%s: high leverage %+v", m.Name, m.HighLeverage)
		}
		near(t, m.Name+" leverage of 1.7 TB", m.HighLeverage[0].Leverage, want[m.Name], 0.0005)
		near(t, m.Name+" leverage of 9.04 GB", m.Leverage[0], map[string]float64{Linear: 0.0916, LogLinear: 0.140, Power: 0.140}[m.Name], 0.0005)
	}
	k := s.Knee
	if k == nil || len(k.HighLeverage) != 1 || k.HighLeverage[0].X != 1813.969025 || k.Significant || k.Cliff {
		t.Fatalf("knee %+v", k)
	}
	// In the segmented fit (common slope, a level on each side) it is the
	// only point above 16 GB far from the others: 0.979.
	near(t, "knee leverage of 1.7 TB", k.HighLeverage[0].Leverage, 0.979, 0.0005)
	want2 := "no cliff at 16.0 GiB: the step of +0.8 % beyond the power trend is not significant (p=0.541); " +
		"the 1.77 TiB point has leverage 0.979 (above 0.5): it alone sets the trend"
	if k.Verdict != want2 {
		t.Errorf("verdict\n%s\nwant\n%s", k.Verdict, want2)
	}
}

// Each side's own loss per doubling is withheld as a series' is when its
// sizes span less than a doubling and its slope is not significant: the
// three sizes below the knee (10, 11 and 12 GiB, throughput 1000, 1080,
// 930) gave 23.1 % lost per doubling, one doubling past them, from a
// slope of p=0.69; the side above (40 to 160 GiB, p=0.022) keeps its
// 12.2 %.
func TestKneeSideLossNarrow(t *testing.T) {
	x := []float64{10, 11, 12, 40, 80, 160}
	y := []float64{1000, 1080, 930, 700, 610, 540}
	k, err := KneeTest(x, y, 20, Power)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := Fit(Power, x[:3], y[:3]); m == nil || m.LossPerDoubling == nil || m.SlopeP <= Alpha {
		t.Fatalf("the side's own fit: %+v", m)
	}
	if k.LossPerDoublingBelow != nil {
		t.Errorf("below: %v lost per doubling over sizes ×1.2 apart", *k.LossPerDoublingBelow)
	}
	if k.LossPerDoublingAbove == nil || math.Abs(*k.LossPerDoublingAbove-0.1217) > 0.0005 {
		t.Errorf("above: %v", k.LossPerDoublingAbove)
	}
}
