package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gbakLogs are the real gbak logs the CSV tests read: the 5 + 5 restores
// of testdata/restores, the cut shop restore and the public corpus's.
func gbakLogs(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(testutil.Testdata(t, "restores"), "*.log"))
	paths = append(paths, testutil.Testdata(t, "gbak", "shop-restore-cut.log"))
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
			if !sameAsJSON(r[1], doc[key]) {
				t.Errorf("%s summary: %s: CSV %q, JSON %v", what, r[0], r[1], doc[key])
			}
		}
		var msgs []any
		for _, k := range []string{"errors", "warnings"} {
			msgs = append(msgs, jlist(doc, k)...)
		}
		fs := tabs["findings"][1:]
		fs = slices.DeleteFunc(fs, func(r []string) bool { return r[1] == "cut-short" })
		if len(fs) != len(msgs) {
			t.Errorf("%s: %d findings, JSON %d errors and warnings", what, len(fs), len(msgs))
			continue
		}
		for i, r := range fs {
			if m := msgs[i].(string); r[6] != m && r[6] != "'"+m {
				t.Errorf("%s findings row %d: %q, JSON %q", what, i+1, r[6], m)
			}
		}
	}
}
