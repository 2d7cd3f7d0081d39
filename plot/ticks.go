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

// Duration units of a time axis, in seconds: a month is a twelfth of
// the Gregorian year (365.2425 days).
const (
	secondsPerDay   = 86400
	secondsPerWeek  = 7 * secondsPerDay
	secondsPerYear  = 365.2425 * secondsPerDay
	secondsPerMonth = secondsPerYear / 12
)

// MaxDurationTicks bounds the labelled ticks of a duration axis, however
// long it is: a log claiming 10¹⁴ s made one label per day of its span.
const MaxDurationTicks = 12

// durationUnit is how a duration axis is labelled: clock times
// (h:mm:ss, as the tables print durations) for the short ones, a number of days, weeks, months or years
// for the long ones, at steps of the unit times one of steps, then of
// 1, 2 or 5 × 10ⁿ when the axis is longer still.
type durationUnit struct {
	name    string  // the axis label's unit: "h:mm:ss", "days"…
	seconds float64 // 1 for clock labels
	steps   []float64
}

var (
	unitClock = durationUnit{name: "h:mm:ss", seconds: 1, steps: []float64{
		1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, secondsPerDay}}
	unitDays   = durationUnit{name: "days", seconds: secondsPerDay, steps: []float64{1, 2, 7, 14}}
	unitWeeks  = durationUnit{name: "weeks", seconds: secondsPerWeek, steps: []float64{1, 2, 4, 13}}
	unitMonths = durationUnit{name: "months", seconds: secondsPerMonth, steps: []float64{1, 2, 3, 6}}
	unitYears  = durationUnit{name: "years", seconds: secondsPerYear, steps: []float64{1, 2, 5}}
)

// durationUnitFor picks the unit of an axis ending at hi seconds: clock
// times up to 3 days, days up to 8 weeks, weeks up to half a year, months
// up to 3 years, years beyond.
func durationUnitFor(hi float64) durationUnit {
	switch {
	case hi < 3*secondsPerDay:
		return unitClock
	case hi < 8*secondsPerWeek:
		return unitDays
	case hi < secondsPerYear/2:
		return unitWeeks
	case hi < 3*secondsPerYear:
		return unitMonths
	}
	return unitYears
}

// step is the shortest step of the unit that spans min to max in at
// most 8 steps: one of the unit's steps, else a 1, 2 or 5 × 10ⁿ multiple
// of the last, so the step grows with the axis and the ticks never
// exceed MaxDurationTicks.
func (u durationUnit) step(span float64) float64 {
	for _, m := range u.steps {
		if s := m * u.seconds; span/s <= 8 {
			return s
		}
	}
	last := u.steps[len(u.steps)-1] * u.seconds
	raw := span / 8 / last
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag * last
		}
	}
	return 10 * mag * last
}

// label prints a tick at v seconds in the unit.
func (u durationUnit) label(v float64) string {
	if u.seconds == 1 {
		return clock(v)
	}
	return FormatValue(v / u.seconds)
}

// durationTicks marks an axis of seconds in its unit (0:00:30, 0:12:00,
// 1:30:00; or days, weeks, months, years) at a round step chosen for
// about six ticks and never more than MaxDurationTicks.
type durationTicks struct{ unit durationUnit }

// Ticks implements gplot.Ticker.
func (t durationTicks) Ticks(min, max float64) []gplot.Tick {
	if !finite(min, max) || max <= min {
		return nil
	}
	u := t.unit
	if u.seconds == 0 {
		u = durationUnitFor(max)
	}
	step := u.step(max - min)
	if !(step > 0) || math.IsInf(step, 0) {
		return nil
	}
	var ticks []gplot.Tick
	first := math.Ceil(min / step)
	// Counted, not summed: v += step stops moving where step is below
	// v's precision.
	for i := 0.0; i <= MaxDurationTicks; i++ {
		v := (first + i) * step
		if v > max+step*1e-9 {
			break
		}
		ticks = append(ticks, gplot.Tick{Value: v, Label: u.label(v)})
	}
	return ticks
}

// durationAxis labels an axis of seconds from lo to hi: plain seconds
// ("2.5") when it spans under a minute, else clock ticks as the tables
// print durations (internal/units: "0:12:00", "1:30:00") or days, weeks,
// months or years for a long one, with the axis label saying which.
func durationAxis(a *gplot.Axis, what string, lo, hi float64) {
	if hi-lo < 60 {
		a.Label.Text = what + " (s)"
		a.Tick.Marker = niceTicks{}
		return
	}
	u := durationUnitFor(hi)
	a.Label.Text = what + " (" + u.name + ")"
	a.Tick.Marker = durationTicks{unit: u}
}

// clock prints seconds as h:mm:ss, as units.Seconds prints a duration of
// a minute or more ("0:00:30" for a tick under a minute).
func clock(s float64) string {
	if math.Abs(s) >= 1e15 {
		return FormatValue(s) // no clock reads that; int64 would overflow
	}
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
	if !(step > 0) || math.IsInf(step, 0) {
		return nil // a span below float precision
	}
	var ticks []gplot.Tick
	start := math.Ceil(min/step) * step
	for i := 0; i <= 12; i++ {
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
