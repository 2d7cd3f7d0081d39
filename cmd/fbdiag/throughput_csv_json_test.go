package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// jsonDoc is the one JSON document fbdiag prints for args, its numbers
// as printed.
func jsonDoc(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errs, code := runCLI(t, nil, withFlags(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d %s", args, code, errs)
	}
	d := json.NewDecoder(strings.NewReader(out))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// withFlags is the command line args with flags after its command
// ("throughput", "gbak compare").
func withFlags(args []string, flags ...string) []string {
	n := 1
	if len(args) > 1 && args[1] == "compare" {
		n = 2
	}
	return slices.Concat(args[:n], flags, args[n:])
}

// csvTables is every CSV table fbdiag writes for args, by name: the
// names an unknown --table lists, each asked for.
func csvTables(t *testing.T, args ...string) map[string][][]string {
	t.Helper()
	with := func(table string) []string {
		return withFlags(args, "--format", "csv", "--table", table)
	}
	_, errs, code := runCLI(t, nil, with("no-such-table")...)
	m := regexp.MustCompile(`want one of ([a-z_, ]+)\)`).FindStringSubmatch(errs)
	if code != 2 || m == nil {
		t.Fatalf("%v: exit %d %s: no list of tables", args, code, errs)
	}
	tables := map[string][][]string{}
	for _, name := range strings.Split(m[1], ", ") {
		out, errs, code := runCLI(t, nil, with(name)...)
		if code != 0 {
			t.Fatalf("%v --table %s: exit %d %s", args, name, code, errs)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		tables[name] = recs
	}
	return tables
}

// jget is the value at a path of keys (string) and indices (int) in a
// JSON document; nil where there is none.
func jget(v any, path ...any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[p]
		case int:
			l, _ := v.([]any)
			if p >= len(l) {
				return nil
			}
			v = l[p]
		}
	}
	return v
}

// jlist is the list at a path of a JSON document.
func jlist(v any, path ...any) []any { l, _ := jget(v, path...).([]any); return l }

// jnum is a JSON number as a float.
func jnum(v any) float64 {
	n, _ := v.(json.Number)
	f, _ := n.Float64()
	return f
}

// row is one CSV row read by its header's keys.
type row struct {
	t    *testing.T
	what string
	head []string
	r    []string
}

// is checks the field of column key against JSON's value v.
func (r row) is(key string, v any) {
	r.t.Helper()
	i := slices.Index(r.head, key)
	if i < 0 {
		r.t.Errorf("%s: no column %s in %v", r.what, key, r.head)
		return
	}
	if !sameAsJSON(r.r[i], v) {
		r.t.Errorf("%s: %s: CSV %q, JSON %v", r.what, key, r.r[i], v)
	}
}

// rows checks a table has one row for each of n, and gives them.
func rows(t *testing.T, what string, recs [][]string, n int) []row {
	t.Helper()
	if recs == nil && n == 0 { // (no such table: nothing to list)
		return nil
	}
	if len(recs)-1 != n {
		t.Errorf("%s: %d rows, JSON %d", what, len(recs)-1, n)
		return nil
	}
	var out []row
	for i, r := range recs[1:] {
		out = append(out, row{t, what + " row " + strconv.Itoa(i+1), recs[0], r})
	}
	return out
}

// iecFactor is the bytes of an IEC unit of JSON's x_unit; 0 when it is
// not a size.
func iecFactor(unit any) float64 {
	u, _ := unit.(string)
	i := slices.Index([]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}, u)
	if i < 0 {
		return 0
	}
	return math.Pow(1024, float64(i))
}

// Every figure of every CSV table of fbdiag throughput, in each of its
// modes, reads as the JSON of the same run: the same number unrounded,
// the same word, null as an empty cell, a flag true or false (steady,
// inside, significant, cliff read yes and no until 2026-12-06). The one
// figure in another unit is a size: JSON's x in x_unit, the CSV's
// _bytes column in whole bytes.
func TestThroughputCSVReadsAsJSON(t *testing.T) {
	td := func(p ...string) string { return testutil.Testdata(t, p...) }
	sweep, _ := filepath.Glob(filepath.Join(td("bench", "sweep-w1"), "*.jsonl"))
	for _, c := range []struct {
		args   []string
		tables []string
	}{
		{[]string{td("bench", "sizes.csv")}, []string{"points", "series", "models", "params", "holdout", "prediction", "knee", "leverage", "summary", "findings"}},
		{[]string{"--knee", "16GB", td("seeds", "degradation-throughput-sata.csv")},
			[]string{"points", "series", "models", "params", "holdout", "prediction", "knee", "leverage", "summary", "findings"}},
		{[]string{td("seeds", "page-buffers-1.7tb.csv")}, []string{"points", "series", "settings", "summary", "findings"}},
		{sweep, []string{"points", "series", "settings", "summary", "findings"}},
		{append([]string{"--mode", "ab"}, sweep...), []string{"points", "ab", "summary", "findings"}},
		{[]string{td("seeds", "power-plan-tpcc.tsv")}, []string{"points", "ab", "summary", "findings"}},
		{[]string{td("restores", "restore-page-buffers.csv")}, []string{"points", "series", "settings", "summary", "findings"}},
		{[]string{td("bench", "load.csv")}, []string{"points", "series", "summary", "findings"}},
		{[]string{td("seeds", "degradation-load-sata.csv")}, []string{"points", "series", "summary", "findings"}},
		{[]string{td("bench", "sizes-w1-w2.csv")}, []string{"points", "series", "models", "params", "holdout", "prediction", "knee", "leverage", "summary", "findings"}},
		{[]string{testutil.Corpus(t, "bench", "pgbench-scales")},
			[]string{"points", "series", "models", "params", "holdout", "prediction", "knee", "leverage", "summary", "findings"}},
		{[]string{testutil.Corpus(t, "bench", "pgbench15-runs-trace.txt")}, []string{"points", "ab", "summary", "findings"}},
		{[]string{testutil.Corpus(t, "bench", "sysbench-oltp-rw.txt")}, []string{"points", "ab", "summary", "findings"}},
	} {
		args := append([]string{"throughput"}, c.args...)
		doc := jsonDoc(t, args...)
		tabs := csvTables(t, args...)
		var names []string
		for n := range tabs {
			names = append(names, n)
		}
		if slices.Sort(names); !slices.Equal(names, slices.Sorted(slices.Values(c.tables))) {
			t.Errorf("%v: tables %v, want %v", c.args, names, c.tables)
		}
		f := iecFactor(doc["x_unit"])
		// x is a point's x as the CSV writes it: whole bytes of a size.
		x := func(v any) any {
			if v == nil || f == 0 {
				return v
			}
			return json.Number(strconv.FormatFloat(math.Round(jnum(v)*f), 'f', -1, 64))
		}
		what := strings.Join(c.args, " ")
		head := func(table string) []string { return tabs[table][0] }
		xKey := func(table, prefix string) string {
			for _, k := range head(table) {
				if strings.HasPrefix(k, prefix) && k != "series" {
					return k
				}
			}
			return ""
		}
		series := jlist(doc, "series")
		mode := doc["mode"]
		var pts, mods, params, prs, levs, settings, abs []any
		var knees []any
		for _, s := range series {
			for _, p := range jlist(s, "points") {
				pts = append(pts, []any{s, p})
			}
			for _, m := range jlist(s, "models") {
				mods = append(mods, []any{s, m})
				for _, p := range jlist(m, "params") {
					params = append(params, []any{s, m, p})
				}
				if jget(m, "prediction") != nil || jget(m, "no_prediction") != nil {
					prs = append(prs, []any{s, m})
				}
				for _, h := range jlist(m, "high_leverage") {
					levs = append(levs, []any{s, jget(m, "name"), h, m})
				}
			}
			if k := jget(s, "knee"); k != nil {
				knees = append(knees, []any{s, k})
				for _, h := range jlist(k, "high_leverage") {
					levs = append(levs, []any{s, "cliff test", h, k})
				}
			}
			for _, st := range jlist(s, "sweep", "settings") {
				settings = append(settings, []any{s, st})
			}
			if ab := jlist(s, "ab"); len(ab) > 0 {
				abs = append(abs, []any{s, nil})
				for _, e := range ab {
					abs = append(abs, []any{s, e})
				}
			} else if mode == "ab" {
				// Nothing compared (one configuration): a row for each
				// label, its runs' count, median and range.
				var labels []string
				ys := map[string][]float64{}
				for _, p := range jlist(s, "points") {
					l := jget(p, "label").(string)
					if ys[l] == nil {
						labels = append(labels, l)
					}
					ys[l] = append(ys[l], jnum(jget(p, "y")))
				}
				for _, l := range labels {
					abs = append(abs, []any{s, l, ys[l]})
				}
			}
		}
		for i, r := range rows(t, what+" points", tabs["points"], len(pts)) {
			s, p := pts[i].([]any)[0], pts[i].([]any)[1]
			r.is("series", jget(s, "name"))
			if mode == "ab" {
				r.is("configuration", jget(p, "label"))
			} else {
				r.is(head("points")[1], x(jget(p, "x")))
			}
			r.is(head("points")[2], jget(p, "y"))
			r.is("source", jget(p, "source"))
			if slices.Contains(head("points"), "steady") {
				r.is("steady", jget(p, "steady"))
			}
		}
		if _, ok := tabs["series"]; ok {
			for i, r := range rows(t, what+" series", tabs["series"], len(series)) {
				s := series[i]
				var xs []float64
				for _, p := range jlist(s, "points") {
					if v := jget(p, "x"); v != nil {
						xs = append(xs, jnum(v))
					}
				}
				r.is("series", jget(s, "name"))
				r.is("points", json.Number(strconv.Itoa(len(jlist(s, "points")))))
				r.is(xKey("series", "first_"), x(json.Number(strconv.FormatFloat(slices.Min(xs), 'f', -1, 64))))
				r.is(xKey("series", "last_"), x(json.Number(strconv.FormatFloat(slices.Max(xs), 'f', -1, 64))))
				r.is("first_to_last_change", jget(s, "first_to_last_change"))
				r.is("to_next_to_last_change", jget(s, "up_to_last_step", "change"))
				r.is("last_step_ratio", jget(s, "last_step", "ratio"))
				r.is(head("series")[7], x(jget(s, "best", "x")))
				r.is(head("series")[8], jget(s, "best", "y"))
			}
		}
		for i, r := range rows(t, what+" models", tabs["models"], len(mods)) {
			s, m := mods[i].([]any)[0], mods[i].([]any)[1]
			r.is("series", jget(s, "name"))
			for _, k := range [][2]string{{"model", "name"}, {"formula", "formula"}, {"r2", "r2"}, {"slope_p", "slope_p"},
				{"loss_per_doubling_share", "loss_per_doubling"}, {"no_loss_per_doubling", "no_loss_per_doubling"}} {
				v := jget(m, k[1])
				if v == nil && k[1] == "no_loss_per_doubling" {
					v = "" // (a text column: empty, as null)
				}
				r.is(k[0], v)
			}
		}
		for i, r := range rows(t, what+" params", tabs["params"], len(params)) {
			p := params[i].([]any)
			r.is("series", jget(p[0], "name"))
			r.is("model", jget(p[1], "name"))
			r.is("param", jget(p[2], "name"))
			r.is("value", jget(p[2], "value"))
			r.is("stderr", jget(p[2], "stderr"))
			r.is("x_unit", doc["x_unit"])
		}
		checked := mods
		if !slices.ContainsFunc(mods, func(x any) bool { return jget(x.([]any)[1], "leave_last_out") != nil }) {
			checked = nil // (no model has one: no rows, a note says why)
		}
		for i, r := range rows(t, what+" holdout", tabs["holdout"], len(checked)) {
			s, m := mods[i].([]any)[0], mods[i].([]any)[1]
			h := jget(m, "leave_last_out")
			r.is("series", jget(s, "name"))
			r.is("model", jget(m, "name"))
			r.is("at_bytes", x(jget(h, "x")))
			for _, k := range [][2]string{{"predicted", "y"}, {"lo", "lo"}, {"hi", "hi"}, {"actual", "actual"}, {"error_change", "error"}, {"inside", "inside_interval"}} {
				r.is(k[0], jget(h, k[1]))
			}
			r.is("error_change", jget(m, "leave_last_out_error"))
		}
		for i, r := range rows(t, what+" prediction", tabs["prediction"], len(prs)) {
			s, m := prs[i].([]any)[0], prs[i].([]any)[1]
			p := jget(m, "prediction")
			r.is("series", jget(s, "name"))
			r.is("model", jget(m, "name"))
			if p == nil { // (no_prediction: the size asked, no figure)
				r.is("at_bytes", x(doc["predict_at"]))
				r.is("predicted", nil)
				continue
			}
			r.is("at_bytes", x(jget(p, "x")))
			r.is("predicted", jget(p, "y"))
			// By design: a bound JSON keeps for a figure no one can use is empty.
			lo, hi := jget(p, "lo"), jget(p, "hi")
			if jget(p, "uninformative") == true {
				lo, hi = nil, nil
			}
			if jget(p, "no_lower_bound") == true {
				lo = nil
			}
			r.is("lo", lo)
			r.is("hi", hi)
		}
		for i, r := range rows(t, what+" knee", tabs["knee"], len(knees)) {
			s, k := knees[i].([]any)[0], knees[i].([]any)[1]
			r.is("series", jget(s, "name"))
			r.is("at_bytes", x(jget(k, "at")))
			for _, f := range [][2]string{{"model", "model"}, {"below", "below"}, {"above", "above"}, {"step", "step"},
				{"step_change", "step_fraction"}, {"p", "p"}, {"significant", "significant"}, {"cliff", "cliff"}} {
				r.is(f[0], jget(k, f[1]))
			}
		}
		for i, r := range rows(t, what+" leverage", tabs["leverage"], len(levs)) {
			l := levs[i].([]any)
			r.is("series", jget(l[0], "name"))
			r.is("fit", l[1])
			r.is(head("leverage")[2], x(jget(l[2], "x")))
			r.is("leverage", jget(l[2], "leverage"))
			r.is("limit", jget(l[3], "leverage_limit"))
		}
		for i, r := range rows(t, what+" settings", tabs["settings"], len(settings)) {
			s, st := settings[i].([]any)[0], settings[i].([]any)[1]
			r.is("series", jget(s, "name"))
			r.is(head("settings")[1], x(jget(st, "x")))
			for _, k := range []string{"n", "median", "min", "max"} {
				r.is(k, jget(st, k))
			}
			r.is("vs_best_change", jget(st, "vs_best"))
			r.is("p_adjusted", jget(st, "compare", "p_adjusted"))
		}
		for i, r := range rows(t, what+" ab", tabs["ab"], len(abs)) {
			s, e := abs[i].([]any)[0], abs[i].([]any)[1]
			r.is("series", jget(s, "name"))
			if l, ok := e.(string); ok {
				ys := slices.Sorted(slices.Values(abs[i].([]any)[2].([]float64)))
				num := func(v float64) json.Number { return json.Number(strconv.FormatFloat(v, 'f', -1, 64)) }
				med := ys[len(ys)/2]
				if len(ys)%2 == 0 {
					med = (ys[len(ys)/2-1] + med) / 2
				}
				r.is("configuration", l)
				r.is("n", json.Number(strconv.Itoa(len(ys))))
				r.is("median", num(med))
				r.is("min", num(ys[0]))
				r.is("max", num(ys[len(ys)-1]))
				r.is("ratio", nil)
				continue
			}
			if e == nil { // the baseline
				b := jget(s, "ab", 0)
				r.is("configuration", jget(b, "baseline"))
				for _, k := range []string{"n", "median", "min", "max"} {
					r.is(k, jget(b, "before", k))
				}
				r.is("spread_share", jget(b, "before_spread"))
				r.is("direction", "baseline")
				continue
			}
			r.is("configuration", jget(e, "label"))
			for _, k := range []string{"n", "median", "min", "max"} {
				r.is(k, jget(e, "after", k))
			}
			r.is("spread_share", jget(e, "after_spread"))
			r.is("ratio", jget(e, "ratio"))
			r.is("change", jget(e, "change"))
			r.is("direction", jget(e, "direction"))
			r.is("p_adjusted", jget(e, "comparison", "p_adjusted"))
		}
		// The summary: each row the JSON figure it repeats.
		if recs := tabs["summary"]; recs != nil {
			fields := map[string]string{}
			for _, r := range recs[1:] {
				fields[r[0]] = r[1]
			}
			check := func(key string, v any) {
				t.Helper()
				got, ok := fields[key]
				if !ok {
					t.Errorf("%s summary: no %s in %v", what, key, fields)
				} else if !sameAsJSON(got, v) {
					t.Errorf("%s summary: %s: CSV %q, JSON %v", what, key, got, v)
				}
				delete(fields, key)
			}
			for _, s := range series {
				key := ""
				if len(series) > 1 {
					key = snakeKey(jget(s, "name").(string)) + "_"
				}
				switch {
				case jget(s, "load") != nil:
					check(key+"median_"+head("points")[2], jget(s, "load", "summary", "median"))
					check(key+"load_speed_per_doubling_change", jget(s, "load", "trend_per_doubling"))
				case jget(s, "sweep") != nil:
					check(key+"best_"+head("settings")[1], x(jget(s, "sweep", "best", "x")))
					check(key+"worst_vs_best_share", jget(s, "sweep", "spread"))
					if jget(s, "sweep", "noise_contradicted") != nil {
						check(key+"assumed_noise_share", jget(s, "sweep", "noise"))
					}
				case len(jlist(s, "ab")) > 4:
					check(key+"configurations", json.Number(strconv.Itoa(len(jlist(s, "ab")))))
				case jget(doc, "mode") == "ab" && len(jlist(s, "ab")) == 0 && len(jlist(s, "points")) == 1:
					// one configuration of one run: its figure
					check(key+"median_"+head("points")[2], jget(s, "points", 0, "y"))
				case len(jlist(s, "ab")) == 1:
					check(key+"change", jget(s, "ab", 0, "change"))
				case len(jlist(s, "ab")) > 1:
					for _, e := range jlist(s, "ab") {
						check(key+snakeKey(jget(e, "label").(string))+"_change", jget(e, "change"))
					}
				case len(jlist(s, "models")) > 0:
					check(key+"first_to_last_change", jget(s, "first_to_last_change"))
					if k := jget(s, "knee"); k != nil {
						check(key+"knee_step_change", jget(k, "step_fraction"))
					}
					var best any // (by R², as the headline's)
					for _, m := range jlist(s, "models") {
						if best == nil || jnum(jget(m, "r2")) > jnum(jget(best, "r2")) {
							best = m
						}
					}
					// A gain is a loss below 0, said as what it is: the sign turned.
					if l := jget(best, "loss_per_doubling"); l != nil && jnum(l) < 0 && jget(s, "lower_is_better") == false {
						check(key+"gain_per_doubling_share", json.Number(strings.TrimPrefix(l.(json.Number).String(), "-")))
					} else if l != nil && jnum(l) >= 0 {
						check(key+"loss_per_doubling_share", l)
					}
					if p := jget(best, "prediction"); p != nil {
						check(key+"predicted_"+head("points")[2], jget(p, "y"))
					}
					// A figure withheld has its reason as the value.
					if w := jget(best, "no_loss_per_doubling"); w != nil {
						check(key+"loss_per_doubling_share", "withheld: "+w.(string))
					}
					if w := jget(best, "no_prediction"); w != nil {
						check(key+"predicted_"+head("points")[2], "no prediction: "+w.(string))
					}
				}
			}
			// (the degradation's and the sweep's other rows: see the
			// docs; told_apart is words)
			for k := range fields {
				if !strings.HasSuffix(k, "_caveat") && k != "told_apart" {
					t.Errorf("%s summary: %s not checked", what, k)
				}
			}
		}
		if n := len(tabs["findings"]) - 1; n != 0 {
			t.Errorf("%s: %d findings rows", what, n)
		}
	}
}

// snakeKey is a name as a CSV key: lower case, "/" as "_per_", any run
// of other characters than letters and digits as one "_".
func snakeKey(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "/", " per ")
	return strings.Trim(regexp.MustCompile(`[^\p{L}\p{N}]+`).ReplaceAllString(name, "_"), "_")
}

// The flags as a script reads them (yes and no before 2026-12-06).
func TestThroughputCSVFlagLines(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--table", "holdout", testutil.Testdata(t, "bench", "sizes.csv")},
			"\ntpmc,linear,952316723,5823.464074198192,387.0865702670253,11259.841578129359,9670.5,-0.39781148087501245,true\n" +
				"tpmc,loglinear,952316723,5460.313295356431,1459.1051595652693,9461.521431147592,9670.5,-0.4353639113431125,false\n"},
		{[]string{"--table", "knee", "--knee", "16GB", testutil.Testdata(t, "seeds", "degradation-throughput-sata.csv")},
			"series,at_bytes,model,below,above,step,step_change,p,significant,cliff\n" +
				"ops_per_s,17179869184,power,4,8,3.5284536788326015,0.007729245667969392,0.5409162812012336,false,false\n"},
		{[]string{"--table", "points", testutil.Testdata(t, "bench", "sizes.csv")},
			"\ntpmc,281752371,4752," + testutil.Testdata(t, "bench", "sizes.csv") + ":4,true\n"},
	} {
		out, errs, code := runCLI(t, nil, append([]string{"throughput", "--format", "csv"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d %s\n%s\nlacks %q", c.args, code, errs, out, c.want)
		}
	}
}

// The parameters of a degradation's curves are per JSON's x_unit, where
// the CSV's sizes are bytes: the params table and the text's note say the
// unit (seed 001: b = -0.154 ops/s per GiB; the CSV gave no unit and its
// points 9706626089 bytes, 2^30 times off for a + b·x).
func TestThroughputParamsSayTheirUnit(t *testing.T) {
	path := testutil.Corpus(t, "seeds", "degradation-throughput-sata.csv")
	doc := jsonDoc(t, "throughput", path)
	if doc["x_unit"] != "GiB" {
		t.Fatalf("JSON x_unit %v", doc["x_unit"])
	}
	params := csvTables(t, "throughput", path)["params"]
	if got := strings.Join(params[2], ","); got != "ops_per_s,linear,b,-0.15448115488313977,0.01872529602238015,GiB" {
		t.Errorf("CSV params row %q", got)
	}
	out, _, _ := runCLI(t, nil, "throughput", path)
	if !strings.Contains(out, "ops_per_s  linear     b          -0.154      0.0187\n") ||
		!strings.Contains(out, "power: c and k of y = c·x^k, fitted on ln y; the others a and b; x in GiB\n") {
		t.Errorf("text parameters:\n%s", out)
	}
}
