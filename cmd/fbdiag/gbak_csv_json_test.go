package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gbakLogs are the real gbak logs the CSV tests read: the 5 + 5 restores
// of testdata/restores, the cut shop restore and the public corpus's.
func gbakLogs(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(testutil.Testdata(t, "restores"), "*.log"))
	ours, _ := filepath.Glob(testutil.Testdata(t, "gbak", "*.log")) // the cut restore, 3.0.11's failed ones
	paths = append(paths, ours...)
	dir := testutil.Corpus(t, "public", "gbak")
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Name() != "SOURCES.md" {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}

// lowerBound is JSON's lower_bound, present and true only, as a bool.
func lowerBound(v any) any { return jget(v, "lower_bound") == true }

// Every figure of every CSV table of fbdiag gbak reads as the JSON of the
// same log: phases in order, tables and indices by name, steps by line,
// the summary's rows and the findings' messages.
func TestGbakCSVReadsAsJSON(t *testing.T) {
	advised := 0
	for _, path := range gbakLogs(t) {
		_, _, code := runCLI(t, nil, "gbak", "--format", "json", path)
		if code != 0 {
			continue // (no gbak line: nothing written)
		}
		doc := jsonDoc(t, "gbak", path)
		tabs := csvTables(t, "gbak", path)
		what := filepath.Base(path)
		for i, r := range rows(t, what+" phases", tabs["phases"], len(jlist(doc, "phases"))) {
			p := jget(doc, "phases", i)
			for _, k := range [][2]string{{"phase", "name"}, {"steps", "steps"}, {"unknown_steps", "unknown"}, {"seconds", "seconds"},
				{"share", "share"}, {"reads", "reads"}, {"writes", "writes"}} {
				r.is(k[0], jget(p, k[1]))
			}
			r.is("bound", lowerBound(p))
		}
		// byName gives the JSON entries of a list by name, in log order.
		byName := func(list string) map[string][]any {
			m := map[string][]any{}
			for _, x := range jlist(doc, list) {
				n := jget(x, "name").(string)
				m[n] = append(m[n], x)
			}
			return m
		}
		take := func(m map[string][]any, name string) any {
			if len(m[name]) == 0 {
				return nil
			}
			x := m[name][0]
			m[name] = m[name][1:]
			return x
		}
		tables := byName("tables")
		for _, r := range rows(t, what+" tables", tabs["tables"], len(jlist(doc, "tables"))) {
			x := take(tables, r.r[0])
			for _, k := range []string{"records", "ignored", "seconds", "records_per_second", "reads", "writes"} {
				r.is(k, jget(x, k))
			}
			r.is("bound", lowerBound(x))
		}
		indices := byName("indices")
		for _, r := range rows(t, what+" indices", tabs["indices"], len(jlist(doc, "indices"))) {
			x := take(indices, r.r[0])
			for _, k := range []string{"seconds", "reads", "writes"} {
				r.is(k, jget(x, k))
			}
			r.is("failed", jget(x, "failed"))
		}
		steps := map[string]any{}
		for _, x := range jlist(doc, "steps") {
			steps[jget(x, "line").(json.Number).String()] = x
		}
		for _, r := range rows(t, what+" steps", tabs["steps"], len(jlist(doc, "steps"))) {
			x := steps[r.r[0]]
			for _, k := range [][2]string{{"phase", "phase"}, {"start_seconds", "start"}, {"seconds", "seconds"}, {"reads", "reads"},
				{"writes", "writes"}, {"kind", "kind"}, {"name", "name"}} {
				r.is(k[0], jget(x, k[1]))
			}
			r.is("bound", lowerBound(x))
		}
		for _, r := range tabs["summary"][1:] {
			key := r[0]
			if key == "statistics" {
				key = "columns"
			}
			if key == "total_seconds_caveat" {
				// the words of JSON's flag (07: a failed run's total is a bound)
				if doc["total_lower_bound"] != true || !strings.HasPrefix(r[1], "at least") {
					t.Errorf("%s summary: %s: CSV %q, JSON total_lower_bound %v", what, r[0], r[1], doc["total_lower_bound"])
				}
				continue
			}
			if !sameAsJSON(r[1], doc[key]) {
				t.Errorf("%s summary: %s: CSV %q, JSON %v", what, r[0], r[1], doc[key])
			}
		}
		var msgs []any
		for _, k := range []string{"errors", "warnings"} {
			msgs = append(msgs, jlist(doc, k)...)
		}
		fs := tabs["findings"][1:]
		// A cut-short row is a step the log ends inside: its value is the
		// step's seconds, its unit says so (the cut restore's ORDER_LINE:
		// 5.375, text "at least 5.375 s"; the unit was empty).
		var cutSteps []any
		for _, x := range jlist(doc, "steps") {
			if lowerBound(x) == true && jget(x, "seconds") != nil {
				cutSteps = append(cutSteps, x)
			}
		}
		var cuts [][]string
		for _, r := range fs {
			if r[1] == "cut-short" {
				cuts = append(cuts, r)
			}
		}
		if len(cuts) != len(cutSteps) {
			t.Errorf("%s: %d cut-short rows, JSON %d steps the log ends inside", what, len(cuts), len(cutSteps))
		}
		for i := 0; i < len(cuts) && i < len(cutSteps); i++ {
			if r := cuts[i]; !sameAsJSON(r[3], jget(cutSteps[i], "seconds")) || r[5] != "seconds" {
				t.Errorf("%s cut-short %s: value %q unit %q, JSON seconds %v", what, r[2], r[3], r[5], jget(cutSteps[i], "seconds"))
			}
			if what == "shop-restore-cut.log" && strings.Join(cuts[i][:6], ",") != "warning,cut-short,data ORDER_LINE,5.375,,seconds" {
				t.Errorf("%s cut-short row %q", what, cuts[i])
			}
		}
		fs = slices.DeleteFunc(fs, func(r []string) bool { return r[1] == "cut-short" })
		// One inactive-indices row when JSON's inactive_indices is above
		// 0, its value that count.
		inactive := slices.IndexFunc(fs, func(r []string) bool { return r[1] == "inactive-indices" })
		if n, _ := doc["inactive_indices"].(json.Number); (n != "" && n != "0") != (inactive >= 0) || inactive >= 0 && !sameAsJSON(fs[inactive][3], doc["inactive_indices"]) {
			t.Errorf("%s: inactive-indices row %d, JSON inactive_indices %v", what, inactive, doc["inactive_indices"])
		}
		fs = slices.DeleteFunc(fs, func(r []string) bool { return r[1] == "inactive-indices" })
		if len(fs) != len(msgs) {
			t.Errorf("%s: %d findings, JSON %d errors and warnings", what, len(fs), len(msgs))
			continue
		}
		// The advice column is JSON's advice[] on the row's message
		// (it was always empty: public 06's parallel workers, 3.0.11's
		// failed indices).
		advice := map[string]string{}
		for _, a := range jlist(doc, "advice") {
			advice[jget(a, "message").(string)] = jget(a, "advice").(string)
		}
		for i, r := range fs {
			m := msgs[i].(string)
			if r[6] != m && r[6] != "'"+m {
				t.Errorf("%s findings row %d: %q, JSON %q", what, i+1, r[6], m)
			}
			if r[7] != advice[m] {
				t.Errorf("%s findings row %d: advice %q, JSON %q", what, i+1, r[7], advice[m])
			}
			if r[7] != "" {
				advised++
			}
		}
	}
	// 06, 09, 10, 15, 16, 17 of the corpus, seven of 3.0.11 (one with
	// two; one the log fbdiag restore cut, fb30-restore-pk-duplicate-cut.log)
	if advised != 14 {
		t.Errorf("%d findings with advice, want 14", advised)
	}
}

// Every figure of every CSV table of fbdiag gbak compare reads as the
// JSON of the same comparison, with two and three sides, of one run and
// of several (the 5 + 5 restores of testdata/restores as 3 + 3 and as
// 2 + 2 + 1), a cut log and the seed's logs of other databases: the runs,
// the totals and every step (matched by name: the CSV is slowest first),
// the ranges of the sides of several runs, the steps on one side only and
// the summary.
func TestGbakCompareCSVReadsAsJSON(t *testing.T) {
	r := func(n string) string { return testutil.Testdata(t, "restores", n) }
	labels := func(pairs ...string) []string {
		var out []string
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, "--label", pairs[i]+"="+r(pairs[i+1]))
		}
		return out
	}
	for _, args := range [][]string{
		labels("remote", "restore-remote-run1.log", "remote", "restore-remote-run2.log", "remote", "restore-remote-run3.log",
			"service", "restore-service-run1.log", "service", "restore-service-run2.log", "service", "restore-service-run3.log"),
		labels("remote", "restore-remote-run1.log", "remote", "restore-remote-run2.log", "service", "restore-service-run1.log",
			"service", "restore-service-run2.log", "one", "restore-service-run5.log"),
		{r("restore-remote-run1.log"), r("restore-service-run1.log"), testutil.Testdata(t, "gbak", "shop-restore-cut.log")},
		{testutil.Testdata(t, "seeds", "restore-balanced.log"), testutil.Testdata(t, "seeds", "restore-high-performance.log")},
		{r("restore-remote-run4.log"), testutil.Corpus(t, "public", "gbak", "02_fb3_restore_stats_tdrw_fbsvcmgr.log")},
	} {
		args = append([]string{"gbak", "compare"}, args...)
		doc := jsonDoc(t, args...)
		tabs := csvTables(t, args...)
		what := strings.Join(args[2:], " ")
		sides := jlist(doc, "sides")
		keys := []string{}
		for _, s := range sides {
			keys = append(keys, columnKeyOf(jget(s, "label").(string)))
		}
		for i, row := range rows(t, what+" runs", tabs["runs"], len(jlist(doc, "runs"))) {
			x := jget(doc, "runs", i)
			for _, k := range []string{"label", "file", "outcome", "total_seconds", "last_time_seconds", "matched_steps", "unmatched_steps",
				"kind", "span_seconds"} {
				row.is(k, jget(x, k))
			}
		}
		// cmpRow checks a row of totals or steps against a JSON entry,
		// and says whether every field matched (silently when quiet).
		cmpRow := func(r row, x any, quiet bool) bool {
			ok := true
			is := func(key string, v any) {
				i := slices.Index(r.head, key)
				if i < 0 || !sameAsJSON(r.r[i], v) {
					ok = false
					if !quiet {
						r.is(key, v)
					}
				}
			}
			is("step", jget(x, "name"))
			for s := range sides {
				is("seconds_"+keys[s], jget(x, "median", s))
				if s == 0 {
					continue
				}
				v := jget(x, "versus", s-1)
				is("ratio_"+keys[s], jget(v, "ratio"))
				is("change_"+keys[s], jget(v, "change"))
				is("p_adjusted_"+keys[s], jget(v, "p_adjusted"))
				// verdict is ~ where JSON finds no difference the clock or
				// the test can tell, else JSON's direction.
				word := jget(v, "direction")
				if jget(v, "within_clock") == true || jget(v, "p") != nil && jget(v, "significant") == false {
					word = "~"
				}
				is("verdict_"+keys[s], word)
			}
			return ok
		}
		var totals []any
		for _, x := range jlist(doc, "totals") {
			if jget(x, "median") != nil && slices.ContainsFunc(jlist(x, "median"), func(v any) bool { return v != nil }) {
				totals = append(totals, x)
			}
		}
		for i, row := range rows(t, what+" totals", tabs["totals"], len(totals)) {
			cmpRow(row, totals[i], false)
		}
		byName := map[string][]any{}
		for _, x := range jlist(doc, "steps") {
			n := jget(x, "name").(string)
			byName[n] = append(byName[n], x)
		}
		for _, row := range rows(t, what+" steps", tabs["steps"], len(jlist(doc, "steps"))) {
			cands := byName[row.r[0]]
			j := slices.IndexFunc(cands, func(x any) bool { return cmpRow(row, x, true) })
			if j < 0 {
				if len(cands) == 0 {
					t.Errorf("%s: step %q not in JSON", what, row.r[0])
					continue
				}
				cmpRow(row, cands[0], false)
				continue
			}
			byName[row.r[0]] = slices.Delete(cands, j, j+1)
		}
		// ranges: each side of several runs, the totals then the steps.
		if recs := tabs["ranges"]; recs != nil {
			all := append(append([]any{}, totals...), jlist(doc, "steps")...)
			for _, r := range recs[1:] {
				s := slices.IndexFunc(sides, func(x any) bool { return jget(x, "label") == r[1] })
				ok := slices.ContainsFunc(all, func(x any) bool {
					return jget(x, "name") == r[0] && sameAsJSON(r[3], jget(x, "range", s, 0)) && sameAsJSON(r[4], jget(x, "median", s)) &&
						sameAsJSON(r[5], jget(x, "range", s, 1)) && sameAsJSON(r[6], jget(x, "spread", s))
				})
				if !ok {
					t.Errorf("%s: ranges row %v: no JSON step or total of these figures", what, r)
				}
			}
		} else if slices.ContainsFunc(sides, func(s any) bool { return jnum(jget(s, "runs")) > 1 }) {
			t.Errorf("%s: no ranges table", what)
		}
		var only [][]string
		for _, x := range jlist(doc, "steps") {
			if o := jget(x, "only"); o != nil {
				only = append(only, []string{o.(string), jget(x, "name").(string)})
			}
		}
		if recs := tabs["only"]; recs != nil || len(only) > 0 {
			got := [][]string{}
			if recs != nil {
				got = recs[1:]
			}
			slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
			slices.SortFunc(only, func(a, b []string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
			if !slices.EqualFunc(got, only, slices.Equal) {
				t.Errorf("%s: only %v, JSON %v", what, got, only)
			}
		}
		sum := map[string]string{}
		for _, r := range tabs["summary"][1:] {
			sum[r[0]] = r[1]
		}
		want := map[string]any{"baseline": doc["base"], "runs": json.Number(strconv.Itoa(len(jlist(doc, "runs"))))}
		if jnum(doc["tests"]) > 0 {
			want["tests"] = doc["tests"]
		}
		for _, x := range jlist(doc, "totals") {
			for i, v := range jlist(x, "versus") {
				if jget(v, "ratio") == nil {
					continue
				}
				k := jget(x, "key").(string) + "_ratio"
				if len(sides) > 2 {
					k += "_" + keys[i+1]
				}
				want[k] = jget(v, "ratio")
			}
		}
		for k, v := range want {
			if got, ok := sum[k]; !ok || !sameAsJSON(got, v) {
				t.Errorf("%s summary: %s: CSV %q, JSON %v", what, k, got, v)
			}
		}
		if len(sum) != len(want) {
			t.Errorf("%s summary: %v, JSON %v", what, sum, want)
		}
	}
}

// columnKeyOf is a side's label as its CSV columns end: letters and
// digits kept, anything else an underscore.
func columnKeyOf(label string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, label)
}

// Rows as a script reads them: a step the log ends inside (its bound
// read "at least" before 2026-12-06), the statistics of a log without
// -st ("none"), and compare's runs with their files as given.
func TestGbakCSVLines(t *testing.T) {
	cut := testutil.Testdata(t, "gbak", "shop-restore-cut.log")
	balanced, high := testutil.Testdata(t, "seeds", "restore-balanced.log"), testutil.Testdata(t, "seeds", "restore-high-performance.log")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gbak", "--format", "csv", cut}, "\n77,data ORDER_LINE,data,3.747,5.375,0,0,true,data,table,ORDER_LINE\n"},
		{[]string{"gbak", "--format", "csv", "--table", "tables", cut}, "\nORDER_LINE,90000,,5.375,16744.18604651163,0,0,true\nSTOCK,"},
		{[]string{"gbak", "--format", "csv", "--table", "summary", testutil.Corpus(t, "public", "gbak", "13_backup_verbose_no_stats_firebird_driver_docs.log")},
			"\ntotal_writes,\nstatistics,\n"},
		{[]string{"gbak", "--format", "csv", "--table", "indices", testutil.Corpus(t, "public", "gbak", "09_restore_deferred_index_failure_issue7269.log")},
			"index,seconds,reads,writes,state,failed\nPK_A3,,,,failed,true\nPK_B1,,,,ok,false\n"},
		{[]string{"gbak", "compare", "--format", "csv", "--table", "runs", balanced, high},
			"label,file,outcome,total_seconds,last_time_seconds,matched_steps,unmatched_steps,kind,span_seconds,total_lower_bound\n" +
				"balanced," + balanced + ",incomplete,,13304.334,5,0,restore,3774.995,false\n" +
				"high-performance," + high + ",incomplete,,7894.34,5,0,restore,2592.555,false\n"},
	} {
		out, errs, code := runCLI(t, nil, c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d %s\n%s\nlacks %q", c.args, code, errs, out, c.want)
		}
	}
}
