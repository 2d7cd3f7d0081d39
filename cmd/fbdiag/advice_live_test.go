package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/internal/testutil"
)

// adviceIdent is a name as the advice writes it: plain, or quoted with
// its quotes doubled, optionally after a schema (Firebird 6).
const adviceIdent = `(?:(?:"(?:[^"]|"")*"|[A-Za-z][A-Za-z0-9_$]*)\.)?(?:"(?:[^"]|"")*"|[A-Za-z][A-Za-z0-9_$]*)`

// adviceStatement matches the statements the index rules advise, written
// inside their prose ("if no query plan uses it: DROP INDEX X; or ...").
var adviceStatement = regexp.MustCompile(`ALTER INDEX ` + adviceIdent + ` (?:ACTIVE|INACTIVE)|DROP INDEX ` + adviceIdent +
	`|SET STATISTICS INDEX ` + adviceIdent + `|ALTER TABLE ` + adviceIdent + ` DROP CONSTRAINT ` + adviceIdent)

// sqlKeywords are what a statement the pattern above missed would hold.
var sqlKeywords = regexp.MustCompile(`\b(?:ALTER|DROP|CREATE|SET STATISTICS|UPDATE|DELETE)\b`)

// adviceStatements returns the statements in advice; a statement the
// pattern does not know fails the test, so that no advice goes untried.
func adviceStatements(t *testing.T, what, advice string) []string {
	t.Helper()
	stmts := adviceStatement.FindAllString(advice, -1)
	if rest := adviceStatement.ReplaceAllString(advice, ""); sqlKeywords.MatchString(rest) {
		t.Errorf("%s: a statement this test cannot tell apart: %q", what, advice)
	}
	return stmts
}

// liveAdvice is what one collect of the database advises: the statements
// of its warnings (by rule and object) and of its stale statistics.
type liveAdvice struct {
	byWarning  map[string][]string // "rule object" → statements
	statistics []string            // the SET STATISTICS lines of the text
}

// collectJSON runs collect --format json on db, the snapshot written to
// out, with args before the database (--rules FILE), and reads its result.
func collectJSON(t *testing.T, s collect.Server, db, out string, args ...string) collectResult {
	t.Helper()
	args = append(append([]string{"collect", "--server", s.Addr, "--out", out, "--format", "json"}, args...), db)
	js, errs, code := runCLI(t, nil, args...)
	if code != exitOK {
		t.Fatalf("collect: exit %d: %s", code, errs)
	}
	var res collectResult
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// collectAdvice collects the database as a DBA would, text and JSON, and
// gathers the statements it advises.
func collectAdvice(t *testing.T, s collect.Server, db, out string) liveAdvice {
	t.Helper()
	text, errs, code := runCLI(t, nil, "collect", "--server", s.Addr, "--out", out+".txt", db)
	if code != exitOK {
		t.Fatalf("collect: exit %d: %s", code, errs)
	}
	res := collectJSON(t, s, db, out+".json.txt")
	a := liveAdvice{byWarning: map[string][]string{}}
	for _, w := range res.Gstat.Warnings {
		key := w.Rule + " " + w.Object
		a.byWarning[key] = append(a.byWarning[key], adviceStatements(t, key, w.Advice)...)
	}
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "SET STATISTICS INDEX ") {
			a.statistics = append(a.statistics, adviceStatements(t, "statistics", l)...)
		}
	}
	return a
}

// execAdvice runs each statement on its own, committed, on a connection
// of its own, as a DBA would paste it into isql.
func execAdvice(t *testing.T, pool *sql.DB, stmts []string) {
	t.Helper()
	for _, st := range stmts {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := pool.ExecContext(ctx, st)
		cancel()
		if err != nil {
			t.Errorf("Firebird refused the advice %q: %v", st, err)
		}
	}
}

// catalogueRows runs a query of string columns.
func catalogueRows(t *testing.T, pool *sql.DB, query string) [][]string {
	t.Helper()
	rows, err := pool.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = strings.TrimSpace(v.String)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// userIndices lists the user indices and whether each is inactive.
func userIndices(t *testing.T, pool *sql.DB) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, r := range catalogueRows(t, pool, `SELECT RDB$INDEX_NAME, CAST(COALESCE(RDB$INDEX_INACTIVE, 0) AS VARCHAR(1))
		FROM RDB$INDICES WHERE COALESCE(RDB$SYSTEM_FLAG, 0) = 0`) {
		m[r[0]] = r[1]
	}
	return m
}

// regularName is a name the advice leaves unquoted (these tests' names
// are no keywords).
var regularName = regexp.MustCompile(`^[A-Z][A-Z0-9_$]*$`)

// quoteName quotes a name as the advice does when it needs quotes.
func quoteName(name string) string {
	if regularName.MatchString(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// Every statement fbdiag advises for a live database is one Firebird
// runs, on the object it names, and does what the advice says: the
// rebuilt indices are no longer sparse and keep their constraint, the
// statistics are no longer stale, and the index that does not pay its
// way goes, a foreign key's with its constraint (testdata/live/advice.sql
// makes one index of each kind a rule can name).
func TestLiveAdviceRuns(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := context.Background()
	var pk, fk, uq [2]string // the constraint and index names Firebird gave
	var indices map[string]string
	withPool(t, s, db, func(pool *sql.DB) {
		f, err := os.Open(testutil.Testdata(t, "live", "advice.sql"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := s.RunScript(ctx, pool, db, f); err != nil {
			t.Fatal(err)
		}
		cons := map[string][2]string{} // type → constraint, index
		for _, r := range catalogueRows(t, pool, `SELECT RDB$CONSTRAINT_TYPE, RDB$CONSTRAINT_NAME, RDB$INDEX_NAME
			FROM RDB$RELATION_CONSTRAINTS WHERE RDB$RELATION_NAME = 'ITEMS' AND RDB$INDEX_NAME IS NOT NULL`) {
			cons[r[0]] = [2]string{r[1], r[2]}
		}
		pk, fk, uq = cons["PRIMARY KEY"], cons["FOREIGN KEY"], cons["UNIQUE"]
		if pk[1] == "" || fk[1] == "" || uq[1] == "" {
			t.Fatalf("ITEMS' constraints: %v", cons)
		}
		if indices = userIndices(t, pool); len(indices) != 14 {
			t.Fatalf("user indices: %v", indices)
		}
	})
	collectGarbage(t, s, db)
	t.Setenv("FBDIAG_SERVER", "")
	dir := t.TempDir()

	before := collectAdvice(t, s, db, filepath.Join(dir, "before"))
	rebuild := []string{"ALTER INDEX " + pk[1] + " ACTIVE", "ALTER INDEX " + uq[1] + " ACTIVE", "ALTER INDEX ORDERS_DATE_D ACTIVE"}
	drop := []string{`DROP INDEX "items flag"`, "ALTER TABLE ITEMS DROP CONSTRAINT " + fk[0]}
	want := map[string][]string{
		"index-sparse " + pk[1]:          rebuild[:1],
		"index-sparse " + uq[1]:          rebuild[1:2],
		"index-sparse ORDERS_DATE_D":     rebuild[2:],
		"index-useless items flag":       drop[:1],
		"index-low-selectivity " + fk[1]: drop[1:],
		"table-sparse ITEMS":             nil, // (gbak backup and restore)
	}
	for key, stmts := range before.byWarning {
		if w, ok := want[key]; !ok || !slices.Equal(stmts, w) {
			t.Errorf("%s advises %q, want %q", key, stmts, w)
		}
	}
	for key := range want {
		if _, ok := before.byWarning[key]; !ok {
			t.Errorf("%s did not fire", key)
		}
	}
	// Every index was created on an empty table: each gets its SET
	// STATISTICS, its name quoted where it needs it.
	var stats []string
	for name := range indices {
		stats = append(stats, "SET STATISTICS INDEX "+quoteName(name))
	}
	slices.Sort(stats)
	if got := slices.Sorted(slices.Values(before.statistics)); !slices.Equal(got, stats) {
		t.Errorf("statistics advice:\n%q\nwant\n%q", got, stats)
	}

	// The rebuilds and the statistics, as advised (what fbdiag printed,
	// whatever the checks above found).
	advised := func(keys ...string) []string {
		var stmts []string
		for _, k := range keys {
			stmts = append(stmts, before.byWarning[k]...)
		}
		return stmts
	}
	withPool(t, s, db, func(pool *sql.DB) {
		execAdvice(t, pool, append(advised("index-sparse "+pk[1], "index-sparse "+uq[1], "index-sparse ORDERS_DATE_D"), before.statistics...))
		if got := userIndices(t, pool); !allActive(got, 14) {
			t.Errorf("indices after the rebuilds: %v", got)
		}
		// "constraint and all": the rebuilt indices still refuse a
		// duplicate.
		for what, insert := range map[string]string{
			pk[1]: "INSERT INTO ITEMS (ID, W_ID, CODE) VALUES (0, 0, 'dup')",
			uq[1]: "INSERT INTO ITEMS (ID, W_ID, CODE) VALUES (1, 0, 'C00000000')",
		} {
			if _, err := pool.ExecContext(ctx, insert); err == nil || !strings.Contains(err.Error(), "PRIMARY or UNIQUE KEY") {
				t.Errorf("a duplicate after the rebuild of %s: %v", what, err)
			}
		}
	})
	after := collectAdvice(t, s, db, filepath.Join(dir, "after"))
	for _, key := range []string{"index-sparse " + pk[1], "index-sparse " + uq[1], "index-sparse ORDERS_DATE_D"} {
		if stmts, ok := after.byWarning[key]; ok {
			t.Errorf("%s still fires after the advised rebuild (%q)", key, stmts)
		}
	}
	if len(after.statistics) != 0 {
		t.Errorf("statistics still stale after SET STATISTICS: %q", after.statistics)
	}

	// The drops, as advised: the index goes, the foreign key's with its
	// constraint.
	withPool(t, s, db, func(pool *sql.DB) {
		execAdvice(t, pool, advised("index-useless items flag", "index-low-selectivity "+fk[1]))
		got := userIndices(t, pool)
		if _, ok := got["items flag"]; ok {
			t.Errorf(`"items flag" still there after its DROP INDEX`)
		}
		if _, ok := got[fk[1]]; ok {
			t.Errorf("%s still there after ALTER TABLE ITEMS DROP CONSTRAINT %s", fk[1], fk[0])
		}
		if len(got) != 12 {
			t.Errorf("indices after the drops: %v", got)
		}
	})
	last := collectAdvice(t, s, db, filepath.Join(dir, "last"))
	if keys := slices.Sorted(maps.Keys(last.byWarning)); !slices.Equal(keys, []string{"table-sparse ITEMS"}) {
		t.Errorf("warnings after the advice: %q", keys)
	}
}

// withPool runs fn on a connection to db that is closed when it returns,
// as a DBA's isql session ends: the driver's transaction, kept open
// between statements, would otherwise hold back garbage collection.
//
// An attachment the server resets at once is tried again, twice at most:
// once in some ten runs of go test ./... a test failed so, with the server
// up and nothing in its log; what the tests check is the advice, not the
// wire.
func withPool(t *testing.T, s collect.Server, db string, fn func(*sql.DB)) {
	t.Helper()
	var pool *sql.DB
	var err error
	for try := 1; ; try++ {
		pool, err = s.Pool(context.Background(), db, 1)
		var ce *collect.Error
		if err == nil || try == 3 || !errors.As(err, &ce) || ce.Kind != collect.KindLost {
			break
		}
		t.Logf("attaching, try %d: %v", try, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	fn(pool)
}

// collectGarbage reads ITEMS on an attachment of its own, once the one
// that deleted its rows is gone, so that cooperative garbage collection
// removes them and their index keys before gstat counts them.
func collectGarbage(t *testing.T, s collect.Server, db string) {
	t.Helper()
	withPool(t, s, db, func(pool *sql.DB) {
		var n int
		if err := pool.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM ITEMS").Scan(&n); err != nil || n != 10000 {
			t.Fatalf("ITEMS: %d rows, %v", n, err)
		}
	})
}

// allActive says whether the n user indices of m are all active.
func allActive(m map[string]string, n int) bool {
	if len(m) != n {
		return false
	}
	for _, inactive := range m {
		if inactive != "0" {
			return false
		}
	}
	return true
}

// gfixCommand is a gfix command in the database rules' advice ("gfix
// -write sync /data/shop.fdb", "gfix -housekeeping 20000 /data/shop.fdb"):
// its switches and their values, then the database, one shell word.
var gfixCommand = regexp.MustCompile(`gfix((?: -[a-z_]+(?: (?:[0-9]+|sync|async|read_write|read_only))?)+) ('[^']*'|[^\s,;)]+)`)

// The database rules' gfix advice, run as printed (collect puts the
// server's address before the database, as a client elsewhere needs it;
// livetest.Gfix names it so): forced writes
// go on, the sweep interval is set, the database comes online, and
// collect finds none of the three any more. The rules fire on a shop
// database made so (forced writes off, gfix -housekeeping 0, gfix -shut
// single -force 0).
func TestLiveHeaderAdviceRuns(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	if err := s.SetForcedWrites(context.Background(), db, false); err != nil {
		t.Fatal(err)
	}
	livetest.Gfix(t, s, db, "-housekeeping", "0")
	livetest.Gfix(t, s, db, "-shut", "single", "-force", "0")
	online := false
	t.Cleanup(func() { // (the database removed online, had the advice failed)
		if !online {
			livetest.Gfix(t, s, db, "-online")
		}
	})
	t.Setenv("FBDIAG_SERVER", "")
	dir := t.TempDir()
	warnings := func(name string) map[string]string {
		m := map[string]string{}
		for _, w := range collectJSON(t, s, db, filepath.Join(dir, name)).Gstat.Warnings {
			if w.Kind == "database" {
				m[w.Rule] = w.Advice
			}
		}
		return m
	}
	before := warnings("before.txt")
	var cmds [][]string
	for _, rule := range []string{"shutdown", "forced-writes-off", "sweep-disabled"} {
		advice, ok := before[rule]
		if !ok {
			t.Fatalf("%s did not fire: %v", rule, before)
		}
		found := gfixCommand.FindAllStringSubmatch(advice, -1)
		if len(found) == 0 {
			t.Fatalf("%s: no gfix command in %q", rule, advice)
		}
		for _, m := range found {
			if want := collect.ClientPrefix(s.Addr) + db; m[2] != want {
				t.Errorf("%s: gfix names the database %s, want %s", rule, m[2], want)
			}
			cmds = append(cmds, strings.Fields(m[1]))
		}
	}
	want := [][]string{{"-online"}, {"-write", "sync"}, {"-sweep"}, {"-housekeeping", "20000"}}
	if !slices.EqualFunc(cmds, want, slices.Equal) {
		t.Errorf("gfix commands %q, want %q", cmds, want)
	}
	for _, c := range cmds {
		livetest.Gfix(t, s, db, c...)
		online = online || c[0] == "-online"
	}
	if after := warnings("after.txt"); len(after) != 0 {
		t.Errorf("database warnings after the advice: %v", after)
	}
}

// oat-stuck on a live database names the transaction that holds the OAT
// and the statement that ends it: run from another connection, it
// disconnects the holder (its transaction rolled back), the OAT moves on
// and collect no longer warns. The threshold is lowered to 5 transactions
// (--rules) so that a few commits make the gap.
func TestLiveOldestActiveAdviceRuns(t *testing.T) {
	s := livetest.Server(t)
	db := livetest.ShopDatabase(t, s)
	ctx := context.Background()
	holder, err := s.Pool(ctx, db, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var attachment int64
	if err := tx.QueryRowContext(ctx, "SELECT CURRENT_CONNECTION FROM RDB$DATABASE").Scan(&attachment); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE WAREHOUSE SET W_YTD = W_YTD + 1 WHERE W_ID = 0"); err != nil {
		t.Fatal(err)
	}
	commits := func(n int) {
		withPool(t, s, db, func(pool *sql.DB) {
			for range n {
				if _, err := pool.ExecContext(ctx, "UPDATE WAREHOUSE SET W_YTD = W_YTD + 1 WHERE W_ID = 1"); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	commits(10)
	rules := filepath.Join(t.TempDir(), "rules.txt")
	if err := os.WriteFile(rules, []byte("oat-stuck.warning = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FBDIAG_SERVER", "")
	oatStuck := func(name string) (string, bool) {
		for _, w := range collectJSON(t, s, db, filepath.Join(filepath.Dir(rules), name), "--rules", rules).Gstat.Warnings {
			if w.Rule == "oat-stuck" {
				return w.Advice, true
			}
		}
		return "", false
	}
	advice, ok := oatStuck("before.txt")
	end := fmt.Sprintf("DELETE FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = %d;", attachment)
	if !ok || !strings.Contains(advice, fmt.Sprintf("of attachment %d (user SYSDBA", attachment)) || !strings.HasSuffix(advice, end) {
		t.Fatalf("oat-stuck: %v, advice %q; want it to end with %q", ok, advice, end)
	}
	withPool(t, s, db, func(pool *sql.DB) {
		if _, err := pool.ExecContext(ctx, strings.TrimSuffix(end, ";")); err != nil {
			t.Fatalf("%s: %v", end, err)
		}
	})
	if _, err := tx.ExecContext(ctx, "UPDATE WAREHOUSE SET W_YTD = W_YTD + 1 WHERE W_ID = 0"); err == nil {
		t.Errorf("the holder's transaction goes on after %s", end)
	}
	commits(2) // (a transaction that starts moves the OAT in the header)
	if advice, ok := oatStuck("after.txt"); ok {
		t.Errorf("oat-stuck after the advice: %q", advice)
	}
}
