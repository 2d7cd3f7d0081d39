package analyze

import (
	"strings"
	"testing"
)

func TestLoadThresholdsText(t *testing.T) {
	src := "# site rules\n\nindex-deep.min_depth = 4\n  table-versions.warning=0.5  \n"
	th, err := LoadThresholds(strings.NewReader(src), "site.rules", NewThresholds())
	if err != nil {
		t.Fatal(err)
	}
	if got := th.Get("index-deep", "min_depth"); got != 4 {
		t.Errorf("index-deep.min_depth = %g, want 4", got)
	}
	if got := th.Get("table-versions", "warning"); got != 0.5 {
		t.Errorf("table-versions.warning = %g, want 0.5", got)
	}
	if got := th.Get("index-deep", "page_fill"); got != 0.9 {
		t.Errorf("index-deep.page_fill = %g, want the default 0.9", got)
	}
	// The defaults are not touched.
	if got := NewThresholds().Get("index-deep", "min_depth"); got != 3 {
		t.Errorf("default changed to %g", got)
	}
}

func TestLoadThresholdsJSON(t *testing.T) {
	src := "{\n  \"index-max-dup.warning\": 50000,\n  \"oat-stuck.critical\": 1e6\n}\n"
	th, err := LoadThresholds(strings.NewReader(src), "site.json", NewThresholds())
	if err != nil {
		t.Fatal(err)
	}
	if th.Get("index-max-dup", "warning") != 50000 || th.Get("oat-stuck", "critical") != 1e6 {
		t.Errorf("JSON overrides not applied: %g %g", th.Get("index-max-dup", "warning"), th.Get("oat-stuck", "critical"))
	}
}

func TestLoadThresholdsErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"index-deep.min_depth = 4\nindex-deep.min_dept = 5\n", `bad.rules:2: unknown threshold "index-deep.min_dept"`},
		{"# x\nindex-deep.min_depth = deep\n", `bad.rules:2: index-deep.min_depth: "deep" is not a number`},
		{"index-deep.min_depth 4\n", `bad.rules:1: want "rule.key = value"`},
		{"{\n \"index-deep.min_depth\": 4,\n \"no-such.rule\": 1\n}", `bad.rules:3: unknown threshold "no-such.rule"`},
		{"{\n \"index-deep.min_depth\": \"four\"\n}", `bad.rules:2: index-deep.min_depth: value must be a number`},
	} {
		_, err := LoadThresholds(strings.NewReader(c.src), "bad.rules", NewThresholds())
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want prefix %s", c.src, err, c.want)
		}
	}
}

func TestThresholdsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, th := range DefaultThresholds {
		if seen[th.Key()] {
			t.Errorf("duplicate threshold %s", th.Key())
		}
		seen[th.Key()] = true
		if th.Source == "" || th.Unit == "" {
			t.Errorf("%s: missing source or unit", th.Key())
		}
		// A source is a document the user can look up, or fbdiag's own
		// default with its reasoning; never the project's private notes.
		if strings.Contains(th.Source, "health-rules") || strings.Contains(th.Source, "reference suggest") {
			t.Errorf("%s: source %q points at notes no user can read", th.Key(), th.Source)
		}
		if strings.HasPrefix(th.Source, "[U]") && (th.Source == srcUnverified || len(th.Source) < 40) {
			t.Errorf("%s: fbdiag default without its reasoning: %q", th.Key(), th.Source)
		}
	}
}
