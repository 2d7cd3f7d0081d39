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

// A rules file that would make the rules say nonsense is refused, with
// the line and the reason in plain words: no "EOF", no
// "strconv.ParseFloat", no negative limit, no critical below its warning.
func TestLoadThresholdsRefusesNonsense(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{", `rules.txt:1: the file ends inside the JSON object; want {"rule.key": value, ...}`},
		{"{\n \"index-deep.min_depth\": 4,\n", `rules.txt:3: the file ends inside the JSON object; want {"rule.key": value, ...}`},
		{"{\"index-deep.min_depth\": 4} x", `rules.txt:1: text after the JSON object`},
		{"[1, 2]", `rules.txt:1: want "rule.key = value", got "[1, 2]"`},
		{"{\"index-deep.warning\" 4}", `rules.txt:1: not valid JSON: expected colon after object key`},
		{"index-deep.warning = 1e999\n", `rules.txt:1: index-deep.warning: 1e999 is out of range (a threshold is a finite number)`},
		{"{\n\"index-deep.warning\": 1e999}", `rules.txt:2: index-deep.warning: 1e999 is out of range (a threshold is a finite number)`},
		{"index-deep.min_depth = NaN\n", `rules.txt:1: index-deep.min_depth: NaN is not a finite number`},
		{"index-deep.min_depth = -1\n", `rules.txt:1: index-deep.min_depth: -1 is negative; a threshold in levels is 0 or more`},
		{"{\"oat-stuck.warning\": -5}", `rules.txt:1: oat-stuck.warning: -5 is negative; a threshold in transactions is 0 or more`},
		{"table-sparse.min_fill = 150\n", `rules.txt:1: table-sparse.min_fill: 150 is over 100 %`},
		{"index-sparse.light_share = 1.5\n", `rules.txt:1: index-sparse.light_share: 1.5 is not a share (0 to 1)`},
		{"forced-writes-off.required = 2\n", `rules.txt:1: forced-writes-off.required: 2 is not a flag (0 or 1)`},
		{"# stricter\ntable-formats.critical = 150\n", `rules.txt:2: table-formats.critical = 150 is below table-formats.warning = 200: a critical limit is at least its warning`},
		{"txid-headroom.warning = 0.95\n", `rules.txt:1: txid-headroom.warning = 0.95 is above txid-headroom.critical = 0.9: a critical limit is at least its warning`},
		{"page-buffers.ram_critical = 0.4\n", `rules.txt:1: page-buffers.ram_critical = 0.4 is below page-buffers.ram_warning = 0.5: a critical limit is at least its warning`},
		{"oat-stuck.critical = 100\noat-stuck.warning = 50\ntable-versions.critical = 0.1\n", `rules.txt:3: table-versions.critical = 0.1 is below table-versions.warning = 0.2: a critical limit is at least its warning`},
		{"oat-stuck.warning = 4\noat-stuck.warning = 2\n", `rules.txt:2: oat-stuck.warning is set twice (first on line 1)`},
	} {
		_, err := LoadThresholds(strings.NewReader(c.src), "rules.txt", NewThresholds())
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	// Both limits of a rule moved together, in either order, are fine.
	th, err := LoadThresholds(strings.NewReader("table-formats.critical = 160\ntable-formats.warning = 150\n"), "rules.txt", NewThresholds())
	if err != nil || th.Get("table-formats", "warning") != 150 || th.Get("table-formats", "critical") != 160 {
		t.Errorf("150 and 160: %v", err)
	}
}

// Where a rule's default critical limit is below its warning, lower is
// worse: the order check turns around.
func TestThresholdOrderLowerIsWorse(t *testing.T) {
	base := NewThresholds()
	base.list = append(base.list, Threshold{"test-low", "warning", 10, "pages", "test"}, Threshold{"test-low", "critical", 5, "pages", "test"})
	if _, err := LoadThresholds(strings.NewReader("test-low.critical = 3\n"), "r", base); err != nil {
		t.Errorf("critical 3 under warning 10: %v", err)
	}
	_, err := LoadThresholds(strings.NewReader("test-low.critical = 12\n"), "r", base)
	if want := "r:1: test-low.critical = 12 is above test-low.warning = 10: lower is worse here, so a critical limit is at most its warning"; err == nil || err.Error() != want {
		t.Errorf("critical 12 over warning 10: %v", err)
	}
}

// The slot table finds every default threshold at its place and nothing
// else: unknown names, empty strings and a rule's name under another rule.
func TestThresholdIndex(t *testing.T) {
	th := NewThresholds()
	for i, d := range DefaultThresholds {
		if got := th.index(d.Rule, d.Name); got != i {
			t.Errorf("%s: index %d, want %d", d.Key(), got, i)
		}
		if got := th.Get(d.Rule, d.Name); got != d.Value {
			t.Errorf("%s: Get %g, want %g", d.Key(), got, d.Value)
		}
	}
	for _, k := range [][2]string{{"", ""}, {"index-deep", ""}, {"", "min_depth"}, {"index-deep", "min_dept"}, {"table-versions", "min_depth"}, {"index-deep", "min_depth "}} {
		if got := th.index(k[0], k[1]); got != -1 {
			t.Errorf("%q.%q: index %d, want -1", k[0], k[1], got)
		}
	}
	var zero Thresholds
	if got := zero.Get("index-deep", "min_depth"); got != 3 {
		t.Errorf("zero Thresholds: index-deep.min_depth %g, want the default 3", got)
	}
}
