package analyze

import (
	"math"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// input names a gstat file: testdata/fb30 (fb30) or the shared corpus
// (public, skipped when absent).
type input struct {
	dir, name string
}

var (
	shopAR    = input{"fb30", "shop-gstat-a-r.txt"}
	shopLater = input{"fb30", "shop-gstat-r-later.txt"}
	fb15      = input{"public", "06_fb15_header_long_running_issue_firebird_support_2005.txt"}
	fb21Doc   = input{"public", "05_fb21_doc_header_and_2x_table_index.txt"}
	fb25Head  = input{"public", "FirebirdSQL-fdb__gstat25-h.out"}
	fb25Full  = input{"public", "FirebirdSQL-fdb__gstat25-f.out"}
	fb30All   = input{"public", "FirebirdSQL-fdb__gstat30-a.out"}
	fb30Full  = input{"public", "FirebirdSQL-fdb__gstat30-f.out"}
	fb4Win    = input{"public", "alexeykovyazin-hqbirdmcp__gstat-header-fb4.0.txt"}
	fb5Blobs  = input{"public", "03_fb5_2plus_table_blob_stats_new_format_pr8394.txt"}
	fb5Index  = input{"public", "04_fb5_index_stats_issue8404.txt"}
	jira12355 = input{"public", "FirebirdSQL-jira-attachments__12355_test_output_FB25.txt"}
	shopHead  = input{"fb30", "shop-gstat-h.txt"}
)

func (in input) path(t testing.TB) string {
	if in.dir == "fb30" {
		return testutil.Testdata(t, "fb30", in.name)
	}
	return testutil.Corpus(t, "public", "gstat", in.name)
}

// replace returns an edit that changes old to new exactly once.
func replace(old, new string) func(string) string {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

// loginFailed cuts a gstat output at its header page and appends what
// gstat prints instead when ISC_USER/ISC_PASSWORD are wrong.
func loginFailed(s string) string {
	i := strings.Index(s, "Database header page information:")
	if i < 0 {
		return s
	}
	return s[:i] + "Statement failed, SQLSTATE = 28000\nYour user name and password are not defined. Ask your database administrator to set up a Firebird login.\n"
}

// fireCase is a real sample (edited minimally where the comment says so)
// on which a rule must fire with that severity, object and value.
type fireCase struct {
	rule   string
	in     input
	edit   func(string) string
	sev    Severity
	object string
	value  float64
}

var fireCases = []fireCase{
	// Firebird 1.5, ~450 Classic connections: OAT 253838 transactions old.
	{"oat-stuck", fb15, nil, Critical, "database", 572981 - 319143},
	{"sweep-gap", fb15, nil, Warn, "database", 317998 - 22951},
	{"sweep-disabled", fb15, nil, Info, "database", 0},
	{"page-buffers", fb15, nil, Info, "database", 1000},
	{"forced-writes-off", fb15, nil, Warn, "database", 0},
	// Edited: the Windows 4.0 header with "force write" removed from its
	// Attributes line (the flag word still has dialect 3, so the label
	// stays with an empty value).
	{"forced-writes-off", fb4Win, replace("Attributes\t\tforce write", "Attributes\t\t"), Critical, "database", 0},
	{"ods-old", fb25Head, nil, Warn, "database", 11.2},
	{"dialect-1", jira12355, nil, Warn, "database", 1},
	{"shutdown", fb21Doc, nil, Warn, "database", 1},
	{"page-size-small", fb21Doc, nil, Warn, "database", 4096},
	// Edited: Next transaction 1807 -> 1600000000 (74.5% of 2^31-1).
	{"txid-headroom", fb25Head, replace("Next transaction\t1807", "Next transaction\t1600000000"), Warn, "database", 1600000000.0 / (1<<31 - 1)},
	// Edited: shop's Next transaction 18 -> 2^48*0.95 (48-bit ODS 12 limit).
	{"txid-headroom", shopAR, replace("Next transaction\t18", "Next transaction\t267401226874912"), Critical, "database", 267401226874912.0 / (1<<48 - 1)},
	// Edited: shop with "backup lock" added to its Attributes.
	{"backup-lock", shopAR, replace("Attributes\t\tforce write", "Attributes\t\tforce write, backup lock"), Warn, "database", 1},
	// Edited: shop with "read only" added to its Attributes.
	{"read-only", shopAR, replace("Attributes\t\tforce write", "Attributes\t\tforce write, read only"), Info, "database", 1},
	// Edited: a corruption line as gstat prints it, inside CUSTOMER's block.
	{"corruption", shopAR, replace("    Pointer pages: 1, data page slots: 392\n", "    Pointer pages: 1, data page slots: 392\nExpected data on page 400\n"), Critical, "database", 1},

	// Edited: shop's gstat -h with everything from the header page on
	// replaced by the two lines gstat prints when the login fails.
	{"gstat-error", shopHead, loginFailed, Critical, "database", 2},
	{"table-versions", shopAR, nil, Warn, "CUSTOMER", 10000.0 / 30000},
	// Edited: CUSTOMER total versions 10000 -> 45000 (more versions than records).
	{"table-versions", shopAR, replace("total versions: 10000", "total versions: 45000"), Critical, "CUSTOMER", 1.5},
	// Edited: CUSTOMER max versions 1 -> 7.
	{"table-max-versions", shopAR, replace("total versions: 10000, max versions: 1", "total versions: 10000, max versions: 7"), Warn, "CUSTOMER", 7},
	{"table-deleted", fb21Doc, nil, Info, "NORMAN", 15},
	{"table-fragments", shopAR, nil, Warn, "CUSTOMER", 3125.0 / 30000},
	// Edited: CUSTOMER total formats 1 -> 245 (ALTER TABLE run 244 times).
	{"table-formats", shopAR, replace("Index root page: 188\n    Total formats: 1", "Index root page: 188\n    Total formats: 245"), Critical, "CUSTOMER", 245},
	{"table-sparse", fb30Full, nil, Warn, "RDB$RELATION_FIELDS", 39},
	{"blob-levels", fb5Blobs, nil, Info, "BLOBS", 1},

	{"index-deep", fb21Doc, nil, Warn, "PK_CONFIGREVISIONSTORE", 3},
	// Edited: the same 2.1 index with depth 3 -> 4.
	{"index-deep", fb21Doc, replace("Depth: 3, leaf buckets: 174", "Depth: 4, leaf buckets: 174"), Critical, "PK_CONFIGREVISIONSTORE", 4},
	{"index-max-dup", shopAR, nil, Warn, "ORDERS_CARRIER", 33333},
	{"index-max-dup", fb5Index, nil, Warn, "HORSE_IDX_BIRTHDAY", 27865},
	// Edited: ORDERS_CARRIER total dup 99989 -> 99998 (two carriers left).
	{"index-useless", shopAR, replace("total dup: 99989", "total dup: 99998"), Warn, "ORDERS_CARRIER", 2},
	{"index-low-selectivity", shopAR, nil, Warn, "CUSTOMER_LAST", 29000.0 / 30000},
	// Edited: CUSTOMER_LAST nodes 30000 -> 20000 (a third of the keys lost).
	{"index-broken", shopAR, replace("depth: 2, leaf buckets: 23, nodes: 30000", "depth: 2, leaf buckets: 23, nodes: 20000"), Warn, "CUSTOMER_LAST", 20000},
	{"index-sparse", shopAR, nil, Warn, "ORDERS_DATE_D", 189.0 / 190},
}

// silentCases are real samples on which a rule must stay silent.
var silentCases = []struct {
	rule string
	in   input
}{
	{"oat-stuck", shopAR}, {"sweep-gap", shopAR}, {"sweep-disabled", fb25Head}, {"page-buffers", shopAR},
	{"forced-writes-off", shopAR}, {"forced-writes-off", fb4Win}, {"ods-old", shopAR}, {"dialect-1", fb25Head},
	{"shutdown", shopAR}, {"page-size-small", shopAR}, {"txid-headroom", fb15}, {"backup-lock", shopAR},
	{"read-only", shopAR}, {"corruption", shopAR}, {"gstat-error", shopHead},
	// After garbage collection the same database has no back versions.
	{"table-versions", shopLater}, {"table-max-versions", shopAR}, {"table-deleted", shopAR},
	{"table-fragments", fb25Full}, {"table-formats", shopAR}, {"table-sparse", shopAR}, {"blob-levels", shopAR},
	{"index-deep", shopAR}, {"index-max-dup", fb30All}, {"index-useless", shopAR},
	// RDB$INDEX_30 has 2 distinct values in 1026 keys, but it is a system
	// index (RDB$USER_PRIVILEGES): the DBA cannot drop it.
	{"index-useless", fb30Full}, {"index-low-selectivity", fb30Full},
	{"index-low-selectivity", fb30All},
	// CUSTOMER has 10000 back versions and 30000 nodes per index: updates
	// that keep the key add no node, so records+versions is not the bar.
	{"index-broken", shopAR}, {"index-sparse", fb30All},
}

func TestRulesFire(t *testing.T) {
	for _, c := range fireCases {
		t.Run(c.rule+"/"+c.in.name, func(t *testing.T) {
			var found *Warning
			for _, a := range analyzeFile(t, c.in.path(t), c.edit) {
				for i, w := range a.Warnings {
					if w.Rule == c.rule && w.Object == c.object {
						found = &a.Warnings[i]
					}
				}
			}
			if found == nil {
				t.Fatalf("rule %s did not fire on %s", c.rule, c.object)
			}
			if found.Severity != c.sev {
				t.Errorf("severity %s, want %s", found.Severity, c.sev)
			}
			if math.Abs(found.Value-c.value) > 1e-9*math.Max(1, math.Abs(c.value)) {
				t.Errorf("value %g, want %g", found.Value, c.value)
			}
			if found.Reason == "" || found.Source == "" || found.Magnitude < 1 {
				t.Errorf("incomplete warning %+v", found)
			}
		})
	}
}

func TestRulesSilent(t *testing.T) {
	for _, c := range silentCases {
		t.Run(c.rule+"/"+c.in.name, func(t *testing.T) {
			for _, a := range analyzeFile(t, c.in.path(t), nil) {
				for _, w := range a.Warnings {
					if w.Rule == c.rule {
						t.Errorf("rule %s fired on %s: %s", c.rule, w.Object, w.Reason)
					}
				}
			}
		})
	}
}

// Every rule of the catalogue has a firing and a silent test, and every
// threshold belongs to a rule.
func TestRulesCovered(t *testing.T) {
	fired, silent := map[string]bool{}, map[string]bool{}
	for _, c := range fireCases {
		fired[c.rule] = true
	}
	for _, c := range silentCases {
		silent[c.rule] = true
	}
	ids := map[string]bool{}
	for _, r := range Rules {
		ids[r.ID] = true
		if r.Kind == "throughput" {
			continue // read by the sweep analysis, tested in throughput_test.go
		}
		if !fired[r.ID] || !silent[r.ID] {
			t.Errorf("rule %s: fire test %v, silent test %v", r.ID, fired[r.ID], silent[r.ID])
		}
	}
	for _, th := range DefaultThresholds {
		if !ids[th.Rule] {
			t.Errorf("threshold %s has no rule", th.Key())
		}
	}
	if len(Rules) < 20 {
		t.Errorf("%d rules, want about 20", len(Rules))
	}
}

// Warnings come critical first, then by how far past the threshold.
func TestWarningsOrder(t *testing.T) {
	a := analyzeFile(t, fb15.path(t), nil)[0]
	var got []string
	for _, w := range a.Warnings {
		got = append(got, w.Rule)
	}
	// oat-stuck critical; warnings: sweep-gap 295047/20000 = 14.8,
	// ods-old 12/10.1 = 1.19, forced-writes-off 1; infos.
	want := "oat-stuck sweep-gap ods-old forced-writes-off page-buffers sweep-disabled"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}

// A threshold from a rules file changes what fires.
func TestRulesOverride(t *testing.T) {
	th, err := LoadThresholds(strings.NewReader("# stricter\nindex-deep.warning = 2\n"), "strict.rules", NewThresholds())
	if err != nil {
		t.Fatal(err)
	}
	a := Gstat(mustReport(t, shopAR), th)
	n := 0
	for _, w := range a.Warnings {
		if w.Rule == "index-deep" {
			n++
			if w.Threshold != 2 || w.Source != "overridden by --rules file" {
				t.Errorf("override not shown: %+v", w)
			}
		}
	}
	// Nine of the ten shop indices have depth 2 (WAREHOUSE's has 1).
	if n != 9 {
		t.Errorf("index-deep fired %d times with warning = 2, want 9", n)
	}
}
