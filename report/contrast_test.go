package report

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// The severity words (CRITICAL, WARNING, OK, a 12 px bold label) are in
// their colour on the page's light backgrounds; small text needs a
// contrast of 4.5:1 (WCAG 2 AA). The amber of WARNING and ATTENTION,
// #b26a00, gave 4.24 on white, 4.06 on a finding's #fafafa and 4.01 on
// the attention box's #fdf8ef.
func TestSeverityColoursContrast(t *testing.T) {
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--(crit|warn|ok|info|muted): (#[0-9a-f]{6}|#[0-9a-f]{3})\b`).FindAllStringSubmatch(pageText, -1) {
		c := m[2]
		if len(c) == 4 { // #666
			c = "#" + c[1:2] + c[1:2] + c[2:3] + c[2:3] + c[3:4] + c[3:4]
		}
		vars[m[1]] = c
	}
	// The backgrounds they are read on: the page, a finding, and the
	// verdict and header boxes.
	backgrounds := []string{"#ffffff", "#fafafa", "#fdf3f3", "#fdf8ef", "#f6fbf6", "#f5f5f5"}
	for _, name := range []string{"crit", "warn", "ok", "info", "muted"} {
		fg, ok := vars[name]
		if !ok {
			t.Fatalf("no --%s in the page's style", name)
		}
		for _, bg := range backgrounds {
			if c := contrast(fg, bg); c < 4.5 {
				t.Errorf("--%s %s on %s: contrast %.2f, under 4.5", name, fg, bg, c)
			}
		}
	}
}

func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance is the relative luminance of #rrggbb (WCAG 2).
func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}
