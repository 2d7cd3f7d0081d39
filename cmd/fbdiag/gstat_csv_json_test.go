package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
)

// gstatCSVRecords is the CSV table of fbdiag gstat on path.
func gstatCSVRecords(t *testing.T, path, table string) (string, [][]string) {
	t.Helper()
	out, errs, code := runCLI(t, nil, "gstat", "--format", "csv", "--table", table, path)
	if code != 0 {
		t.Fatalf("%s --table %s: exit %d %s", path, table, code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return out, recs
}

// sameAsJSON says whether a CSV field reads as JSON's value v: the same
// text, or for a number the same float (JSON writes an exponent below
// 1e-6, the CSV never does); "" for null, "true" and "false" for a bool.
func sameAsJSON(field string, v any) bool {
	switch v := v.(type) {
	case nil:
		return field == ""
	case bool:
		return field == strconv.FormatBool(v)
	case string:
		return field == v
	case json.Number:
		if field == v.String() {
			return true
		}
		a, err1 := strconv.ParseFloat(field, 64)
		b, err2 := v.Float64()
		return err1 == nil && err2 == nil && a == b && strings.ContainsAny(v.String(), "eE")
	}
	return false
}

// Every figure of the CSV tables, indices and summary rows that JSON's
// header and totals carry reads as JSON's, unrounded, of real gstat
// outputs: Firebird 3.0 (-a -r, -s -r) and the fdb driver's 2.5 and 3.0
// samples (foreign keys, unique constraints, system indices, a database
// 859 days old). The summary's rows from transaction_id_limit on were
// added 2026-12-06; the indices' kind read pk and ? before.
func TestGstatCSVReadsAsJSON(t *testing.T) {
	paths := []string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), testutil.Testdata(t, "fb30", "shop-gstat-s-r.txt"),
		testutil.Testdata(t, "fb30", "shop-gstat-e.txt"), testutil.Testdata(t, "gstat", "shop-odd-names-corrupt.txt")}
	for _, name := range []string{"FirebirdSQL-fdb__gstat25-a.out", "FirebirdSQL-fdb__gstat30-a.out", "FirebirdSQL-fdb__gstat30-h.out",
		"05_fb21_doc_header_and_2x_table_index.txt"} {
		paths = append(paths, testutil.Corpus(t, "public", "gstat", name))
	}
	for _, path := range paths {
		doc := jsonDoc(t, "gstat", path)
		tables := map[string]map[string]any{}
		indices := map[string]map[string]any{}
		for _, x := range doc["tables"].([]any) {
			tb := x.(map[string]any)
			tables[tb["name"].(string)] = tb
			for _, y := range tb["indices"].([]any) {
				ix := y.(map[string]any)
				indices[ix["name"].(string)] = ix
			}
		}
		check := func(what, field string, v any) {
			t.Helper()
			if !sameAsJSON(field, v) {
				t.Errorf("%s: %s: CSV %q, JSON %v", path, what, field, v)
			}
		}
		_, recs := gstatCSVRecords(t, path, "tables")
		for _, r := range recs[1:] {
			tb := tables[r[0]]
			for i, key := range []string{"name", "records", "versions", "versions_per_record", "max_versions", "fragments_per_record", "data_pages"} {
				check(r[0]+" "+recs[0][i], r[i], tb[key])
			}
			// fill_share is gstat's whole percent, JSON's average_fill, as a share.
			if fill, ok := tb["average_fill"].(json.Number); ok {
				n, _ := fill.Int64()
				check(r[0]+" fill_share", r[7], json.Number(strconv.FormatFloat(float64(n)/100, 'f', -1, 64)))
			} else {
				check(r[0]+" fill_share", r[7], nil)
			}
			check(r[0]+" size_bytes", r[8], tb["size_bytes"])
			check(r[0]+" index_bytes", r[9], tb["index_bytes"])
		}
		_, recs = gstatCSVRecords(t, path, "indices")
		for _, r := range recs[1:] {
			ix := indices[r[0]]
			for i, key := range []string{"name", "table", "kind", "depth", "leaf_buckets", "nodes", "selectivity", "dup_ratio", "max_dup", "size_bytes"} {
				check(r[0]+" "+recs[0][i], r[i], ix[key])
			}
		}
		_, recs = gstatCSVRecords(t, path, "summary")
		header, _ := doc["header"].(map[string]any)
		totals := doc["totals"].(map[string]any)
		seen := map[string]bool{}
		for _, r := range recs[1:] {
			seen[r[0]] = true
			added := map[string]any{}
			for _, k := range []string{"transaction_id_limit", "transaction_id_used_share", "database_age_days", "read_only",
				"shutdown_mode", "backup_state", "creation_date_utc"} {
				if header != nil {
					added[k] = header[k]
				}
			}
			for _, k := range []string{"primary_pages", "secondary_pages", "swept_pages", "leaf_pages"} {
				added[k] = totals[k]
			}
			if v, ok := added[r[0]]; ok {
				check("summary "+r[0], r[1], v)
				continue
			}
			v, ok := header[r[0]]
			if !ok {
				v, ok = totals[r[0]]
			}
			switch {
			case !ok || r[0] == "attributes": // (a list, joined by ", ")
			case r[0] == "execution_time" || r[0] == "creation_date":
				// gstat gives no zone: JSON's Z, RFC 3339's, is not in the CSV.
				if r[1] != "" {
					r[1] += "Z"
				}
				check("summary "+r[0], r[1], v)
			default:
				check("summary "+r[0], r[1], v)
			}
		}
		for _, k := range []string{"transaction_id_limit", "primary_pages", "leaf_pages"} {
			if !seen[k] && header != nil {
				t.Errorf("%s: summary lacks %s", path, k)
			}
		}
		// The encryption and problems tables, row by row.
		for _, c := range []struct {
			table, list string
			keys        []string
		}{
			{"encryption", "encryption", []string{"kind", "total", "encrypted", "non_crypted", "db_problem"}},
			{"problems", "findings", []string{"line", "kind", "table", "text", "page", "from_page"}},
		} {
			_, recs = gstatCSVRecords(t, path, c.table)
			list, _ := doc[c.list].([]any)
			if len(recs)-1 != len(list) {
				t.Errorf("%s: %d %s rows, JSON %d", path, len(recs)-1, c.table, len(list))
				continue
			}
			if len(recs[0]) != len(c.keys) {
				t.Errorf("%s: %s columns %v, want one for each of JSON's %v", path, c.table, recs[0], c.keys)
				continue
			}
			for i, r := range recs[1:] {
				for j, key := range c.keys {
					check(c.table+" "+recs[0][j], r[j], list[i].(map[string]any)[key])
				}
			}
		}
	}
	// The rows as a script reads them.
	for _, c := range []struct{ path, want string }{
		{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt"), "\ndata_pages,6545\ntransaction_id_limit,281474976710655\n" +
			"transaction_id_used_share,0.00000000000006394884621840924\ndatabase_age_days,\nread_only,false\nshutdown_mode,\n" +
			"backup_state,\ncreation_date_utc,false\nprimary_pages,6203\nsecondary_pages,342\nswept_pages,0\nleaf_pages,1276\n"},
		{testutil.Corpus(t, "public", "gstat", "FirebirdSQL-fdb__gstat30-h.out"), "\ntransaction_id_limit,281474976710655\n" +
			"transaction_id_used_share,0.0000000000076063599863119\ndatabase_age_days,859.1818865740742\n"},
	} {
		if out, _ := gstatCSVRecords(t, c.path, "summary"); !strings.Contains(out, c.want) {
			t.Errorf("%s: summary lacks %q:\n%s", c.path, c.want, out)
		}
	}
}

// Every row of the CSV warnings table reads as JSON's warning: value,
// threshold and unit, a flag's too (forced-writes-off 0 against 1, flag;
// they were empty until 2026-12-06) and a share of RAM ("of RAM" before),
// of real outputs: Firebird 2.1's manual (forced writes off, multi-user
// maintenance), a 2.5 header of 131072 page buffers judged for 100
// Classic connections in 1 GiB, and the 3.0 sample.
func TestGstatCSVWarningsReadAsJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{testutil.Corpus(t, "public", "gstat", "05_fb21_doc_header_and_2x_table_index.txt")},
			[]string{"\nwarning,forced-writes-off,database,0,1,flag,", "\nwarning,shutdown,database,1,0,flag,the database is in multi-user maintenance,"}},
		{[]string{"--architecture", "classic", "--connections", "100", "--ram", "1GB",
			testutil.Corpus(t, "public", "gstat", "FirebirdSQL-jira-attachments__13359_SomeAdditionalInfo.txt")},
			[]string{"\ncritical,page-buffers,database,100,1,share of RAM,"}},
		{[]string{testutil.Testdata(t, "fb30", "shop-gstat-a-r.txt")},
			[]string{"\nwarning,index-sparse,index ORDERS_CARRIER on ORDERS,0.88,0.8,share,"}},
	} {
		out, errs, code := runCLI(t, nil, append([]string{"gstat", "--format", "json"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, errs)
		}
		d := json.NewDecoder(strings.NewReader(out))
		d.UseNumber()
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		csvOut, errs, code := runCLI(t, nil, append([]string{"gstat", "--format", "csv", "--table", "warnings"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(csvOut, w) {
				t.Errorf("%v: CSV lacks %q:\n%s", c.args, w, csvOut)
			}
		}
		recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		ws := doc["warnings"].([]any)
		if len(recs)-1 != len(ws) {
			t.Fatalf("%v: %d rows, JSON %d warnings", c.args, len(recs)-1, len(ws))
		}
		for i, r := range recs[1:] {
			w := ws[i].(map[string]any)
			for j, key := range []string{"severity", "rule", "", "value", "threshold", "unit", "reason", "advice", "source"} {
				if key != "" && !sameAsJSON(r[j], w[key]) {
					t.Errorf("%v: %s %s: CSV %q, JSON %v", c.args, w["rule"], recs[0][j], r[j], w[key])
				}
			}
		}
	}
}
