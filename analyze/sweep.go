package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	// NoiseContradicted is, with one run per setting, the setting that
	// lies beyond both its neighbours (below both, or above both) by the
	// most, when that is more than Noise: a response that turns back and
	// forth by more than the assumed noise says the noise is larger (the
	// best is the one turn a curve with an optimum makes). nil otherwise.
	NoiseContradicted *SweepDip `json:"noise_contradicted,omitempty"`
}

// SweepDip is a setting of a one-run sweep beyond both its neighbours
// (in the order of the settings): Share is the smaller of its two steps
// to them, over the best.
type SweepDip struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	PrevX float64 `json:"prev_x"`
	PrevY float64 `json:"prev_y"`
	NextX float64 `json:"next_x"`
	NextY float64 `json:"next_y"`
	Share float64 `json:"share"`
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
	given := noise > 0
	if !given {
		noise = threshold("sweep_noise")
	}
	sw.PostHoc = true
	if repeated {
		sw.Adjustment = Holm
		sw.Test = "Mann-Whitney U of each setting against the best, p Holm-adjusted, alpha 0.05; " +
			"the best was picked from these data after the fact, which favours finding the others worse"
	} else {
		sw.Noise = &noise
		which := "the best is the highest value"
		if lowerIsBetter {
			which = "the best is the lowest value"
		}
		from := "fbdiag assumes (its default, throughput-sweep.sweep_noise; --noise sets another)"
		if given {
			from = "assumed by --noise"
		}
		sw.Test = fmt.Sprintf("one run per setting: %s, not tested; as good: within %s of the best, a noise %s, not measured",
			which, pct(noise), from)
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
	if !repeated {
		sw.NoiseContradicted = dip(sw.Settings, sw.Best.X, best, noise)
	}
	sw.describe(parse.Unit{})
	return sw
}

// dip finds the setting other than the best (at bestX) that lies beyond
// both its neighbours, in the order of x, by the largest share of best;
// nil when none does by more than noise.
func dip(settings []SweepSetting, bestX, best, noise float64) *SweepDip {
	s := slices.Clone(settings)
	slices.SortFunc(s, func(a, b SweepSetting) int { return cmp.Compare(a.X, b.X) })
	var out *SweepDip
	for i := 1; i+1 < len(s); i++ {
		p, c, n := s[i-1].Median, s[i].Median, s[i+1].Median
		if s[i].X == bestX || !((c < p && c < n) || (c > p && c > n)) {
			continue
		}
		share := math.Min(math.Abs(c-p), math.Abs(c-n)) / math.Abs(best)
		if share > noise && (out == nil || share > out.Share) {
			out = &SweepDip{X: s[i].X, Y: c, PrevX: s[i-1].X, PrevY: p, NextX: s[i+1].X, NextY: n, Share: share}
		}
	}
	return out
}

// NoiseWords says what the noise of a one-run sweep is: "the assumed
// 2.0 % noise" ("" with repeated runs).
func (sw *Sweep) NoiseWords() string {
	if sw.Noise == nil {
		return ""
	}
	return "the assumed " + pct(*sw.Noise) + " noise"
}

// DipWords describes NoiseContradicted: "1024 reads 312 between 362 at
// 768 and 390 at 1500, 12.8 % of the best beyond both" ("" without).
func (sw *Sweep) DipWords(unit parse.Unit) string {
	d := sw.NoiseContradicted
	if d == nil {
		return ""
	}
	return fmt.Sprintf("%s reads %s between %s at %s and %s at %s, %s of the best beyond both",
		formatX(d.X, unit), units.Sig3(d.Y), units.Sig3(d.PrevY), formatX(d.PrevX, unit), units.Sig3(d.NextY), formatX(d.NextX, unit),
		pct(d.Share))
}

// describe writes the verdict, with the unit of the settings.
func (sw *Sweep) describe(unit parse.Unit) {
	runs := ""
	if sw.Best.N == 1 {
		runs = ", 1 run"
	}
	if len(sw.Settings) == 1 {
		// One setting (a sweep stopped after its first value) has no worst
		// and nothing to compare: it read "worst 2 (0.0 % off the best)".
		sw.Verdict = fmt.Sprintf("one setting measured, %s (%s%s): nothing to compare it with",
			formatX(sw.Best.X, unit), units.Sig3(sw.Best.Median), runs)
		return
	}
	sw.Verdict = fmt.Sprintf("best %s (%s%s); worst %s (%s off the best)",
		formatX(sw.Best.X, unit), units.Sig3(sw.Best.Median), runs, formatX(sw.Worst.X, unit), pct(sw.Spread))
	var noise, few []string
	var ps []float64 // the adjusted p of the settings the test did not tell apart
	adjusted := false
	for _, x := range sw.WithinNoise {
		if sw.TooFewRuns(x) {
			few = append(few, formatX(x, unit))
		} else {
			noise = append(noise, formatX(x, unit))
			if c := sw.setting(x).Compare; c != nil && c.PAdjusted != nil {
				ps = append(ps, *c.PAdjusted)
				adjusted = adjusted || c.Tests > 1
			}
		}
	}
	switch {
	case len(noise) == 0:
	case sw.Noise != nil:
		// One run each: "as good" is the assumed noise's margin.
		sw.Verdict += "; as good within " + sw.NoiseWords() + ": " + strings.Join(noise, ", ")
	default:
		// A test that finds no difference does not show the settings
		// as good: 64 buffers restores 14.8 % slower than 4096 over 5
		// runs each (p 0.032, adjusted 0.127), not told apart.
		sw.Verdict += "; not told apart from the best (" + pRange(ps, adjusted) + "): " + strings.Join(noise, ", ")
	}
	if len(few) > 0 {
		sw.Verdict += "; not told apart from the best, with too few runs for the test to tell: " + strings.Join(few, ", ")
	}
	if d := sw.DipWords(unit); d != "" {
		sw.Verdict += "; " + d + ", more than " + sw.NoiseWords() + ": the assumption looks too small"
	}
}

// setting is the setting at x (the zero SweepSetting when none is).
func (sw *Sweep) setting(x float64) SweepSetting {
	for _, s := range sw.Settings {
		if s.X == x {
			return s
		}
	}
	return SweepSetting{}
}

// pRange says the p of the tests, adjusted or not: "p adjusted 0.127",
// or "p adjusted 0.127 to 0.841" for several.
func pRange(ps []float64, adjusted bool) string {
	if len(ps) == 0 {
		return "p above 0.05"
	}
	name := "p "
	if adjusted {
		name = "p adjusted "
	}
	lo, hi := fmt.Sprintf("%.3f", slices.Min(ps)), fmt.Sprintf("%.3f", slices.Max(ps))
	if lo == hi {
		return name + lo
	}
	return name + lo + " to " + hi
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
