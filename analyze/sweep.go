package analyze

import (
	"fmt"
	"math"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// Sweep is the answer to "which setting is best": the best setting, how
// much the setting matters (the spread) and which settings are as good as
// the best within the noise of the measurements.
type Sweep struct {
	Best  SweepSetting `json:"best"`
	Worst SweepSetting `json:"worst"`
	// Spread is |best − worst| / best.
	Spread float64 `json:"spread"`
	// WithinNoise lists the other settings that cannot be told apart from
	// the best: by a Mann-Whitney test when settings were run several
	// times, else by being within Noise of the best.
	WithinNoise []float64 `json:"within_noise"`
	Noise       *float64  `json:"noise"`
	// Adjustment is how the p of the tests against the best were
	// adjusted for their number (holm), "" without tests. The best is
	// picked from the same data after the fact (PostHoc), which favours
	// finding the others worse than it even after the adjustment.
	Adjustment string         `json:"adjustment,omitempty"`
	PostHoc    bool           `json:"post_hoc"`
	Test       string         `json:"test"`
	Settings   []SweepSetting `json:"settings"`
	Verdict    string         `json:"verdict"`
}

// SweepSetting is one setting's measurements: median, smallest and
// largest of its N runs.
type SweepSetting struct {
	X       float64     `json:"x"`
	Median  float64     `json:"median"`
	Min     float64     `json:"min"`
	Max     float64     `json:"max"`
	N       int         `json:"n"`
	VsBest  float64     `json:"vs_best"` // median / best median − 1
	Compare *Comparison `json:"compare,omitempty"`
}

func sweep(pts []Point, lowerIsBetter bool, noise float64, unit parse.Unit) *Sweep {
	by := map[float64][]float64{}
	var xs []float64
	for _, p := range pts {
		if _, ok := by[*p.X]; !ok {
			xs = append(xs, *p.X)
		}
		by[*p.X] = append(by[*p.X], p.Y)
	}
	if len(xs) == 0 {
		return nil
	}
	sw := SweepSettings(xs, by, lowerIsBetter, noise)
	if sw != nil {
		sw.describe(unit)
	}
	return sw
}

// SweepSettings finds the best of the settings xs, whose measurements are
// in by[x] (nil when the best is zero). noise (a fraction; 0 for the default threshold) is used only
// when no setting was run more than once.
func SweepSettings(xs []float64, by map[float64][]float64, lowerIsBetter bool, noise float64) *Sweep {
	sw := &Sweep{}
	repeated := false
	for _, x := range xs {
		s := Summarize(by[x])
		sw.Settings = append(sw.Settings, SweepSetting{X: x, Median: s.Median, Min: s.Min, Max: s.Max, N: s.N})
		if s.N > 1 {
			repeated = true
		}
	}
	better := func(a, b float64) bool {
		if lowerIsBetter {
			return a < b
		}
		return a > b
	}
	bi, wi := 0, 0
	for i, s := range sw.Settings {
		if better(s.Median, sw.Settings[bi].Median) {
			bi = i
		}
		if better(sw.Settings[wi].Median, s.Median) {
			wi = i
		}
	}
	best := sw.Settings[bi].Median
	if best == 0 || !finite(best) {
		return nil // no "fraction of the best" against zero
	}
	if noise <= 0 {
		noise = threshold("sweep_noise")
	}
	sw.PostHoc = true
	if repeated {
		sw.Adjustment = Holm
		sw.Test = "Mann-Whitney U of each setting against the best, p Holm-adjusted, alpha 0.05; " +
			"the best was picked from these data after the fact, which favours finding the others worse"
	} else {
		sw.Noise = &noise
		sw.Test = fmt.Sprintf("one run per setting: within %s of the best", pct(noise))
	}
	sw.WithinNoise = []float64{}
	var cmps []*Comparison
	for i := range sw.Settings {
		s := &sw.Settings[i]
		s.VsBest = s.Median/best - 1
		if i != bi && repeated {
			c := Compare(by[sw.Settings[bi].X], by[s.X])
			s.Compare = &c
			cmps = append(cmps, &c)
		}
	}
	if repeated {
		AdjustComparisons(cmps, Holm)
	}
	for i, s := range sw.Settings {
		switch {
		case i == bi:
		case repeated && !s.Compare.Significant, !repeated && math.Abs(s.VsBest) <= noise:
			sw.WithinNoise = append(sw.WithinNoise, s.X)
		}
	}
	sw.Best, sw.Worst = sw.Settings[bi], sw.Settings[wi]
	sw.Spread = math.Abs(best-sw.Worst.Median) / best
	sw.describe(parse.Unit{})
	return sw
}

// describe writes the verdict, with the unit of the settings.
func (sw *Sweep) describe(unit parse.Unit) {
	sw.Verdict = fmt.Sprintf("best %s (%s); worst %s (%s off the best)",
		formatX(sw.Best.X, unit), units.Sig3(sw.Best.Median), formatX(sw.Worst.X, unit), pct(sw.Spread))
	var noise, few []string
	for _, x := range sw.WithinNoise {
		if sw.TooFewRuns(x) {
			few = append(few, formatX(x, unit))
		} else {
			noise = append(noise, formatX(x, unit))
		}
	}
	if len(noise) > 0 {
		sw.Verdict += "; as good within noise: " + strings.Join(noise, ", ")
	}
	if len(few) > 0 {
		sw.Verdict += "; not told apart from the best, with too few runs for the test to tell: " + strings.Join(few, ", ")
	}
}

// TooFew counts the settings not told apart from the best for too few
// runs (TooFewRuns).
func (sw *Sweep) TooFew() int {
	n := 0
	for _, x := range sw.WithinNoise {
		if sw.TooFewRuns(x) {
			n++
		}
	}
	return n
}

// TooFewRuns says whether setting x was not told apart from the best by
// a test that could not have told (Compare's warning: two runs a side
// cannot reach p ≤ 0.05, nor can one): not as good within noise, only
// not measured enough.
func (sw *Sweep) TooFewRuns(x float64) bool {
	for _, s := range sw.Settings {
		if s.X == x && s.Compare != nil && s.Compare.TooFewRuns() {
			return true
		}
	}
	return false
}
