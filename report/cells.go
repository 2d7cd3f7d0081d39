package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/internal/printable"
)

// Cell formatting shared by every command's text, CSV and markdown tables,
// so that a figure reads the same in gstat, gbak and throughput output.

// Clip shortens a text cell to n runes, ending it with "…", so that tables
// fit a 100-column terminal. It counts the runes of the text as printed,
// control characters escaped (see printable.String).
func Clip(s string, n int) string {
	r := []rune(printable.String(s))
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ClipLeft keeps the end of a long file name: the base name is what tells
// files apart. It counts as Clip does.
func ClipLeft(s string, n int) string {
	r := []rune(printable.String(s))
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// Num prints a figure with four significant digits, whole numbers as they
// are, and "–" for NaN and infinities.
func Num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case v == math.Trunc(v) && math.Abs(v) < 1e7:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case math.Abs(v) >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Int prints a counter; unknown (nil) is an empty cell.
func Int(p *int64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(*p, 10)
}

// Str prints a text field; unknown (nil) is "?".
func Str(p *string) string {
	if p == nil {
		return "?"
	}
	return *p
}

// Float prints a figure with prec decimals; unknown (nil) is an empty cell.
func Float(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

// Size prints a size in binary units (KiB, MiB, GiB) as DBAs compare them
// with page counts; unknown (nil) is an empty cell.
func Size(p *int64) string {
	if p == nil {
		return ""
	}
	v := float64(*p)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if v < 1024 || u == "TiB" {
			if u == "B" {
				return fmt.Sprintf("%d B", *p)
			}
			return fmt.Sprintf("%.1f %s", v, u)
		}
		v /= 1024
	}
	return ""
}

// Percent prints a signed change: 0.123 is "+12.3%".
func Percent(v float64) string { return fmt.Sprintf("%+.1f%%", 100*v) }

// Percent0 prints a share without sign or needless decimals: 0.1 is
// "10%", 0.125 "12.5%".
func Percent0(v float64) string { return strconv.FormatFloat(100*v, 'f', -1, 64) + "%" }

// PercentOr prints a signed change; unknown (nil) is "–".
func PercentOr(v *float64) string {
	if v == nil {
		return "–"
	}
	return Percent(*v)
}

// WithUnit appends a unit to a figure that has one.
func WithUnit(v, unit string) string {
	if unit == "" || v == "" {
		return v
	}
	return v + " " + unit
}

// Wrap splits s into lines of at most width runes, each starting with
// indent (the first line too).
func Wrap(s, indent string, width int) []string {
	var lines []string
	line := indent
	for _, word := range strings.Fields(s) {
		if len(line) > len(indent) && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	if len(line) > len(indent) {
		lines = append(lines, line)
	}
	return lines
}
