package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"

	"github.com/fbdiag/fbdiag/internal/units"
)

// sizeUnits are the size units fbdiag's inputs use, with their factor in
// bytes; decimal and binary units are kept apart so "10 GB" stays 10 GB.
var sizeUnits = []struct {
	name   string
	factor float64
}{
	{"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"PB", 1e15},
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"PiB", 1 << 50},
}

func unitFactor(unit string) (float64, bool) {
	for _, u := range sizeUnits {
		if strings.EqualFold(u.name, unit) {
			return u.factor, true
		}
	}
	return 0, false
}

// FormatSize prints v (in unit) with the unit that keeps the number
// between 1 and 1000: 1000 GB → "1 TB", 0.5 GB → "500 MB". Unknown units
// print as "v unit".
func FormatSize(v float64, unit string) string {
	f, ok := unitFactor(unit)
	if !ok {
		return strings.TrimSpace(strconv.FormatFloat(v, 'g', 3, 64) + " " + unit)
	}
	binary := strings.Contains(unit, "i")
	bytes := v * f
	name := "B"
	div := 1.0
	for _, u := range sizeUnits {
		if strings.Contains(u.name, "i") != binary && u.name != "B" {
			continue
		}
		if bytes >= u.factor*0.9999 {
			name, div = u.name, u.factor
		}
	}
	return sig3(bytes/div) + " " + name
}

// sig3 prints v with at most three significant digits and no exponent
// or float noise: 9.04, 30.3, 1.81, 250.
func sig3(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	if err != nil {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// sizeTicks marks a log axis of sizes given in unit: every power of ten
// labelled in readable units (10 GB, 100 GB, 1 TB), minor ticks between,
// and 2×, 3×, 5× labelled too when the range spans little more than a
// decade so a 9–30 GB axis still reads 10 GB, 20 GB, 30 GB.
type sizeTicks struct{ Unit string }

// Ticks implements gplot.Ticker.
func (t sizeTicks) Ticks(min, max float64) []gplot.Tick {
	if min <= 0 || max <= 0 || !finite(min, max) {
		return nil
	}
	span := math.Log10(max) - math.Log10(min)
	labelled := map[int]bool{1: true}
	switch {
	case span < 1.2:
		labelled = map[int]bool{1: true, 2: true, 3: true, 5: true}
	case span < 2.5:
		labelled = map[int]bool{1: true, 2: true, 5: true}
	}
	var ticks []gplot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		dec := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * dec
			if v < min*0.9999 || v > max*1.0001 {
				continue
			}
			tk := gplot.Tick{Value: v}
			if labelled[m] {
				tk.Label = FormatSize(v, t.Unit)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// durationTicks marks an axis of seconds with clock labels (0:00:30, 0:12:00,
// 1:30:00) at a round step chosen for about six ticks.
type durationTicks struct{}

var durationSteps = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

// Ticks implements gplot.Ticker.
func (durationTicks) Ticks(min, max float64) []gplot.Tick {
	if !finite(min, max) || max <= min {
		return nil
	}
	step := durationSteps[len(durationSteps)-1]
	for _, s := range durationSteps {
		if (max-min)/s <= 8 {
			step = s
			break
		}
	}
	var ticks []gplot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		ticks = append(ticks, gplot.Tick{Value: v, Label: clock(v)})
	}
	return ticks
}

// durationAxis labels an axis of seconds from lo to hi: plain seconds
// ("2.5") when it spans under a minute, else clock ticks as the tables
// print durations (internal/units: "0:12:00", "1:30:00"), with the axis
// label saying which.
func durationAxis(a *gplot.Axis, what string, lo, hi float64) {
	if hi-lo < 60 {
		a.Label.Text = what + " (s)"
		a.Tick.Marker = niceTicks{}
		return
	}
	a.Label.Text = what + " (h:mm:ss)"
	a.Tick.Marker = durationTicks{}
}

// clock prints seconds as h:mm:ss, as units.Seconds prints a duration of
// a minute or more ("0:00:30" for a tick under a minute).
func clock(s float64) string {
	if s >= 59.5 {
		return units.Seconds(s)
	}
	return fmt.Sprintf("0:00:%02d", int64(math.Round(s)))
}

// valueTicks lists the distinct values of a short numeric axis (page
// buffers 256, 512, 768…) so every measured setting is labelled.
func valueTicks(xs []float64) gplot.ConstantTicks {
	var ticks gplot.ConstantTicks
	seen := map[float64]bool{}
	for _, x := range xs {
		if seen[x] {
			continue
		}
		seen[x] = true
		ticks = append(ticks, gplot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
	}
	return ticks
}

// niceTicks labels a linear axis at about six round values (1, 2, 2.5 or
// 5 × 10ⁿ) with compact labels (FormatValue), and puts minor ticks between.
type niceTicks struct{}

// Ticks implements gplot.Ticker.
func (niceTicks) Ticks(min, max float64) []gplot.Tick {
	if !finite(min, max) || max <= min {
		return nil
	}
	raw := (max - min) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []gplot.Tick
	start := math.Ceil(min/step) * step
	for i := 0; ; i++ {
		v := start + float64(i)*step
		if v > max+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, gplot.Tick{Value: v, Label: FormatValue(v)})
		if mv := v + step/2; mv < max {
			ticks = append(ticks, gplot.Tick{Value: mv})
		}
	}
	return ticks
}
