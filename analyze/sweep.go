package analyze

import (
	"fmt"
	"math"
	"strings"
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
	WithinNoise []float64      `json:"within_noise"`
	Noise       *float64       `json:"noise"`
	Test        string         `json:"test"`
	Settings    []SweepSetting `json:"settings"`
	Verdict     string         `json:"verdict"`
}

// SweepSetting is one setting's measurements.
type SweepSetting struct {
	X       float64     `json:"x"`
	Median  float64     `json:"median"`
	N       int         `json:"n"`
	VsBest  float64     `json:"vs_best"` // median / best median − 1
	Compare *Comparison `json:"compare,omitempty"`
}

func sweep(pts []Point, lowerIsBetter bool, noise float64, unit string) *Sweep {
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
		sw.Settings = append(sw.Settings, SweepSetting{X: x, Median: s.Median, N: s.N})
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
	if repeated {
		sw.Test = "Mann-Whitney U against the best setting, alpha 0.05"
	} else {
		sw.Noise = &noise
		sw.Test = fmt.Sprintf("one run per setting: within %.1f%% of the best", 100*noise)
	}
	sw.WithinNoise = []float64{}
	for i := range sw.Settings {
		s := &sw.Settings[i]
		s.VsBest = s.Median/best - 1
		if i == bi {
			continue
		}
		if repeated {
			c := Compare(by[sw.Settings[bi].X], by[s.X])
			s.Compare = &c
			if !c.Significant {
				sw.WithinNoise = append(sw.WithinNoise, s.X)
			}
		} else if math.Abs(s.VsBest) <= noise {
			sw.WithinNoise = append(sw.WithinNoise, s.X)
		}
	}
	sw.Best, sw.Worst = sw.Settings[bi], sw.Settings[wi]
	sw.Spread = math.Abs(best-sw.Worst.Median) / best
	sw.describe("")
	return sw
}

// describe writes the verdict, with the unit of the settings.
func (sw *Sweep) describe(unit string) {
	sw.Verdict = fmt.Sprintf("best %s (%g); worst %s (%.1f%% off the best)",
		FormatX(sw.Best.X, unit), sw.Best.Median, FormatX(sw.Worst.X, unit), 100*sw.Spread)
	if len(sw.WithinNoise) > 0 {
		var xs []string
		for _, x := range sw.WithinNoise {
			xs = append(xs, FormatX(x, unit))
		}
		sw.Verdict += "; as good within noise: " + strings.Join(xs, ", ")
	}
}
