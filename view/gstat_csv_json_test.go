package view

import (
	"bytes"
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// gstatCSVBoth writes the CSV table of the gstat file at path both ways,
// from the documents (Write) and streamed (GstatCSV), fails unless they
// agree, and returns it with the analyses.
func gstatCSVBoth(t *testing.T, path, table string) (string, []*analyze.GstatAnalysis) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reps, err := parse.ReadGstat(bytes.NewReader(data), "in")
	if err != nil {
		t.Fatal(err)
	}
	th := analyze.NewThresholds()
	var as []*analyze.GstatAnalysis
	var docs []*Doc
	for _, r := range reps {
		a := analyze.Gstat(r, th)
		as = append(as, a)
		docs = append(docs, Gstat(a, GstatOptions{Several: len(reps) > 1}))
	}
	var want bytes.Buffer
	if err := Write(&want, CSV, Options{Table: table, Source: len(reps) > 1}, docs...); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	g := NewGstatCSV(&got, Options{Table: table}, GstatOptions{})
	if err := analyze.StreamGstat(bytes.NewReader(data), "in", th, analyze.GstatOptions{}, g.Stream()); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("%s --table %s: streamed CSV differs:\n%.400s\nwant\n%.400s", path, table, got.String(), want.String())
	}
	return want.String(), as
}

// The CSV indices table's kind is JSON's word (primary_key, foreign_key,
// unique, system, unknown), streamed or not; text keeps its short names
// (pk, fk, ?). It printed the short names until 2026-12-06.
func TestGstatCSVIndexKindIsJSONs(t *testing.T) {
	for _, c := range []struct {
		path  string
		lines []string // in the CSV
		text  []string // in the text
	}{
		{testutil.Testdata(t, "fb30", "shop-gstat-s-r.txt"),
			[]string{
				"RDB$INDEX_15,RDB$RELATION_FIELDS,system,2,3,482,0.002074688796680498,0,0,24576",
				"ORDERS_CARRIER,ORDERS,unknown,2,75,95000,0.09090909090909091,0.9998842105263158,31666,614400",
			},
			// (RDB$RELATION_FIELDS and RDB$RELATION_CONSTRAINTS read
			// "RDB$RELATION_…" alike until 2026-12-06: the columns widen
			// until no two names read the same)
			[]string{"ORDERS_CARRIER  ORDERS           ?           2    75   95000 ",
				"\nRDB$RELATION_F…      482 ", "\nRDB$RELATION_C…       42 ", "\nRDB$RELATIONS         56 "}},
		{testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-a.out"),
			[]string{
				"RDB$4,DEPARTMENT,unique,1,1,21,0.047619047619047616,0,0,8192",
				"RDB$FOREIGN3,JOB,foreign_key,1,1,31,0.14285714285714285,0.7741935483870968,20,8192",
			},
			[]string{"RDB$FOREIGN3   JOB           fk  ", "RDB$4          DEPARTMENT    unique  "}},
	} {
		out, as := gstatCSVBoth(t, c.path, "indices")
		for _, l := range c.lines {
			if !strings.Contains(out, "\n"+l+"\n") {
				t.Errorf("%s: CSV lacks %q:\n%s", c.path, l, out)
			}
		}
		// Every row's kind is the JSON one of its index.
		kinds := map[string]string{}
		for _, a := range as {
			for i := range a.Tables {
				for _, ix := range a.Tables[i].Indices {
					kinds[ix.QualifiedName()] = ix.Kind
				}
			}
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(recs[0], ","); got != "index,table,kind,depth,leaf_pages,nodes,selectivity,dup_share,max_dup,size_bytes" {
			t.Errorf("%s: header %s", c.path, got)
		}
		for _, r := range recs[1:] {
			if r[2] != kinds[r[0]] {
				t.Errorf("%s: %s kind %q, JSON's %q", c.path, r[0], r[2], kinds[r[0]])
			}
		}
		var text bytes.Buffer
		for _, a := range as {
			if err := Write(&text, Text, Options{All: true}, Gstat(a, GstatOptions{})); err != nil {
				t.Fatal(err)
			}
		}
		for _, l := range c.text {
			if !strings.Contains(text.String(), l) {
				t.Errorf("%s: text lacks %q", c.path, l)
			}
		}
	}
}
