package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/collect/livetest"
	"github.com/fbdiag/fbdiag/parse"
)

// restore --replace of a backup whose unique index gbak cannot rebuild
// (a duplicate key): gbak goes on to its final line and leaves the new
// database offline. fbdiag swapped it in, deleted the original and
// exited 0 after a timeline reading "Outcome failed" and "Replaced the
// existing database once the new one was complete". Now it exits 1
// with the original untouched, and still prints the timeline, whose
// advice says how to fix the restored database.
func TestLiveRestoreReplaceWithFailedIndex(t *testing.T) {
	s := livetest.Server(t)
	db, fbk := livetest.DuplicateKeyBackup(t, s)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "r.log")
	out, errs, code := runCLI(t, nil, "restore", "--server", s.Addr, "--replace", "--log", log, fbk, db)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	kept := serverTemps(t, db)
	if len(kept) != 1 {
		t.Fatalf("beside the database: %q, want the restored one", kept)
	}
	oneErrorLine(t, "restore --replace with a failed index", errs, "fbdiag: cannot restore "+fbk+" to "+db+" on "+s.Addr+
		`: gbak finished with errors: cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"; `+
		db+" not replaced, untouched; the restored database is kept as "+kept[0]+
		", offline (single-user maintenance): fix what the log names, then gfix -online "+collect.ClientPrefix(s.Addr)+kept[0]+", or delete it; the log is "+log+"\n")
	if after, _ := os.ReadFile(db); len(after) != len(before) || !collect.IsDatabaseFile(db) {
		t.Errorf("the original changed size: %d bytes, was %d", len(after), len(before))
	}
	for _, want := range []string{"Outcome      failed\n", "UX_U_CODE     ", "then ALTER INDEX UX_U_CODE ACTIVE;",
		"\nRestored as  " + kept[0] + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The advice is on the database gbak made, kept beside the original:
	// "in it … delete or change the rows" on the original would change
	// the database the restore left as it was. The log's last lines say
	// where it is and that the original is as it was, so that reading
	// the log later advises the same.
	if text := readLiveFile(t, log); !strings.HasSuffix(text, "\nfbdiag: the restored database is kept as "+kept[0]+
		"\nfbdiag: the restore left the database it was to replace as it was\n") {
		t.Errorf("the log ends %q", text[max(0, len(text)-200):])
	}
	again, _, _ := runCLI(t, nil, "gbak", log)
	for what, text := range map[string]string{"restore": out, "gbak LOG": again} {
		flat := strings.Join(strings.Fields(text), " ")
		if !strings.Contains(flat, "gfix -online "+kept[0]+" ") || strings.Contains(flat, "gfix -online "+db+" ") {
			t.Errorf("%s: the advice does not name the kept database %s:\n%s", what, kept[0], text)
		}
	}
	followFailedIndexAdvice(t, s, kept[0], out)
	if strings.Contains(out, "Replaced the existing database") {
		t.Errorf("stdout says the database was replaced:\n%s", out)
	}
	if _, err := os.Stat(log); err != nil {
		t.Errorf("the log: %v", err)
	}

	// JSON says it too: a script that reads run.completed sees gbak's
	// run finished, and run.failure what failed in it.
	fresh := livetest.TempPath(t, s, "dupkey-new.fdb")
	out, _, code = runCLI(t, nil, "restore", "--server", s.Addr, "--format", "json", "--log", filepath.Join(filepath.Dir(log), "r2.log"), fbk, fresh)
	var res struct {
		Run struct {
			Completed, Replaced bool
			Failure             string
			KeptAs              string `json:"kept_as"`
		}
		Timeline struct{ Outcome string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitError || !res.Run.Completed || res.Run.Replaced ||
		res.Run.Failure != `cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"` ||
		res.Run.KeptAs != "" || res.Timeline.Outcome != "failed" {
		t.Errorf("--format json: exit %d, %+v, %v", code, res, err)
	}
	// --replace again, in JSON: run.kept_as names the second kept file.
	out, _, code = runCLI(t, nil, "restore", "--server", s.Addr, "--replace", "--format", "json", "--log", filepath.Join(filepath.Dir(log), "r3.log"), fbk, db)
	res.Run.KeptAs = ""
	second := slices.DeleteFunc(serverTemps(t, db), func(p string) bool { return p == kept[0] })
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitError || len(second) != 1 || res.Run.KeptAs != second[0] {
		t.Errorf("--replace --format json: exit %d, kept_as %q, beside the database %q, %v", code, res.Run.KeptAs, second, err)
	}
	for _, p := range append(second, kept[0]) {
		os.Remove(p)
	}
}

// followFailedIndexAdvice does what the restore advised on the database
// it kept (out, its text output): in it, as SYSDBA on one connection,
// ALTER INDEX UX_U_CODE ACTIVE fails while the key repeats; with the row
// that repeats it changed, it activates the index; gfix -online on the
// path the advice names brings the database online, where a second
// connection is let in and the index refuses the duplicate again.
func followFailedIndexAdvice(t *testing.T, s collect.Server, kept, out string) {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	activate := regexp.MustCompile(`ALTER INDEX UX_U_CODE ACTIVE`).FindString(flat)
	online := regexp.MustCompile(`gfix -online (\S+)`).FindStringSubmatch(flat)
	if activate == "" || online == nil || online[1] != kept {
		t.Fatalf("the advice: %q, %q in\n%s", activate, online, out)
	}
	ctx := context.Background()
	withPool(t, s, kept, func(pool *sql.DB) {
		if _, err := pool.ExecContext(ctx, activate); err == nil || !strings.Contains(err.Error(), "UX_U_CODE") {
			t.Errorf("%s before the rows are fixed: %v", activate, err)
		}
		if _, err := pool.ExecContext(ctx, "UPDATE U SET CODE = 305419897 WHERE ID = 2"); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.ExecContext(ctx, activate); err != nil {
			t.Errorf("%s once the rows are fixed: %v", activate, err)
		}
	})
	livetest.Gfix(t, s, online[1], "-online")
	withPool(t, s, kept, func(pool *sql.DB) {
		pool.SetMaxOpenConns(2)
		c1, err := pool.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c1.Close()
		c2, err := pool.Conn(ctx) // (offline, a second attachment was refused)
		if err != nil {
			t.Fatalf("a second connection after gfix -online: %v", err)
		}
		defer c2.Close()
		if _, err := c2.ExecContext(ctx, "INSERT INTO U VALUES (3, 305419896)"); err == nil || !strings.Contains(err.Error(), "UX_U_CODE") {
			t.Errorf("a duplicate CODE after the advice: %v", err)
		}
	})
}

// restore --replace of a backup whose primary key gbak cannot rebuild: on
// 3.0.11 gbak stops there (firebird#7269), fbdiag deletes what it wrote
// and leaves the original as it was. The log kept as LOG.partial says so
// in its last line, and its advice restores again with fbdiag restore
// --replace --inactive, which replaces the original only once the new one
// is complete, not with gbak -rep -i, which would replace it at once.
// Followed, that advice and the rest of it (fix the rows, activate the
// index) give a database whose key refuses the duplicate again.
func TestLiveRestoreReplaceStoppedAtPrimaryKey(t *testing.T) {
	s := livetest.Server(t)
	db, fbk := livetest.DuplicatePrimaryKeyBackup(t, s)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	// Firebird sends gbak's last lines with its error, and the driver
	// drops them (collect's runService): up to a kilobyte, which under
	// load reaches back before "cannot commit index" (a CI run lost it in
	// three restores of three). The advice then names no index, and says
	// how to find it; either advice is followed below.
	dir := t.TempDir()
	log := filepath.Join(dir, "r.log")
	_, errs, code := runCLI(t, nil, "restore", "--server", s.Addr, "--replace", "--log", log, fbk, db)
	if code != exitError || !strings.Contains(errs, "Cannot deactivate index used by a PRIMARY/UNIQUE constraint") ||
		!strings.Contains(errs, "nothing left; "+db+" untouched; the log so far") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(db); len(after) != len(before) || len(serverTemps(t, db)) != 0 {
		t.Fatalf("the original changed size (%d bytes, was %d), or files beside it: %q", len(after), len(before), serverTemps(t, db))
	}
	partial := readLiveFile(t, log+".partial")
	// The count the error gives is the file's (gbak's lines, the error
	// fbdiag writes as gbak prints it, fbdiag's own lines), and the log
	// has advice, which fbdiag gbak gives.
	if want := fmt.Sprintf("the log so far (%d lines) is %s.partial, and fbdiag gbak %[2]s.partial says what to do\n",
		strings.Count(partial, "\n"), log); !strings.HasSuffix(errs, want) {
		t.Errorf("the error does not say %q: %s", want, errs)
	}
	// gbak's error, which the Services API gives as the service's status,
	// is in the log as gbak prints it.
	end := "\ngbak: ERROR:action cancelled by trigger (3) to preserve data integrity\n" +
		"gbak: ERROR:    Cannot deactivate index used by a PRIMARY/UNIQUE constraint\n" +
		"gbak:Exiting before completion due to errors\n" +
		"fbdiag: the restore left the database it was to replace as it was\n" +
		"fbdiag: the restore left nothing: fbdiag deleted the database gbak had begun\n"
	if !strings.HasSuffix(partial, end) {
		t.Errorf("the log ends %q", partial[max(0, len(partial)-400):])
	}
	// Where the loss cut a line, the log says so in its place (each run on
	// 3.0.11 so far lost at least the end of "Problematic key value is
	// …"), and fbdiag gbak reports it; a fragment read after the loss is
	// told as such, not taken for a line of gbak's.
	gbakOut, gbakErrs, _ := runCLI(t, nil, "gbak", log+".partial")
	for note, says := range map[string]string{
		parse.GbakCut:      "gbak's output before its error is incomplete here",
		parse.GbakCutAfter: "gbak's output goes on after the part lost with its error with",
	} {
		if strings.Contains(partial, "\n"+note) && !strings.Contains(gbakErrs, says) {
			t.Errorf("fbdiag gbak of the log does not say %q: %q", says, gbakErrs)
		}
	}
	if strings.Contains(partial, "\ngbak:ue is") {
		t.Errorf("a fragment logged as a line of gbak's:\n%s", partial)
	}
	flat := strings.Join(strings.Fields(gbakOut), " ")
	again := "fbdiag restore --replace --inactive " + fbk + " " + db
	if !strings.Contains(flat, "fbdiag deleted the unfinished database it left: restore again with every index inactive ("+again+
		", with the --server of the restore that failed") || strings.Contains(flat, "(gbak -rep") {
		t.Fatalf("the advice on the partial log:\n%s", gbakOut)
	}
	// The statements that activate the index: the one the advice names,
	// or, when the log lost its name, those of the indices the advice's
	// query finds inactive.
	var activate []string
	named := strings.Contains(partial, "\ngbak:cannot commit index RDB$PRIMARY1\n")
	const inactive = "SELECT RDB$INDEX_NAME FROM RDB$INDICES WHERE RDB$INDEX_INACTIVE = 1"
	if named {
		// The step gbak failed at, not its error's words; or, when the
		// lines that said it were lost (a run under go test -race lost
		// those from the second "committing metadata" to the index's,
		// read the index's failure after them), the last one logged, and
		// that what followed it was lost.
		lost := regexp.MustCompile(`; gbak's last step: [^;(]+ \(what gbak printed after it was lost with its error\); `)
		if !strings.Contains(errs, "; gbak's last step: activating and creating deferred index RDB$PRIMARY1; ") &&
			!(lost.MatchString(errs) && strings.Contains(partial, "\n"+parse.GbakCutAfter)) {
			t.Errorf("the last step: %s", errs)
		}
		// (The key's value is in the advice when its line came whole.)
		fix := regexp.MustCompile(`delete or change the rows of P that repeat the key(?: \("ID" = 305419896\))?, then (ALTER INDEX RDB\$PRIMARY1 ACTIVE)`).FindStringSubmatch(flat)
		if fix == nil {
			t.Fatalf("no fix in the advice:\n%s", gbakOut)
		}
		activate = []string{fix[1]}
	} else if !strings.Contains(flat, "the lines that named the index are not in the log") || !strings.Contains(flat, "("+inactive+")") {
		t.Fatalf("the advice on a log that lost the index's name:\n%s", gbakOut)
	}
	t.Logf("the log named the index: %v", named)
	// The advice, followed.
	args := append([]string{"restore", "--server", s.Addr, "--log", filepath.Join(dir, "again.log")}, strings.Fields(again)[2:]...)
	if _, errs, code := runCLI(t, nil, args...); code != exitOK {
		t.Fatalf("%s: exit %d: %s", again, code, errs)
	}
	ctx := context.Background()
	withPool(t, s, db, func(pool *sql.DB) {
		if !named {
			rows, err := pool.QueryContext(ctx, inactive)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name string
				if err := rows.Scan(&name); err != nil {
					t.Fatal(err)
				}
				activate = append(activate, "ALTER INDEX "+analyze.QuoteIdent(strings.TrimSpace(name))+" ACTIVE")
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			rows.Close()
			if !slices.Equal(activate, []string{"ALTER INDEX RDB$PRIMARY1 ACTIVE"}) {
				t.Fatalf("the inactive indices' statements: %q", activate)
			}
		}
		// The one whose rows repeat a key refuses with the key's value.
		if _, err := pool.ExecContext(ctx, activate[0]); err == nil || !strings.Contains(err.Error(), `Problematic key value is ("ID" = 305419896)`) {
			t.Errorf("%s before the rows are fixed: %v", activate[0], err)
		}
		if _, err := pool.ExecContext(ctx, "UPDATE P SET ID = 305419897 WHERE V = 2"); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.ExecContext(ctx, activate[0]); err != nil {
			t.Fatalf("%s once the rows are fixed: %v", activate[0], err)
		}
		if _, err := pool.ExecContext(ctx, "INSERT INTO P VALUES (305419896, 3)"); err == nil || !strings.Contains(err.Error(), "PRIMARY or UNIQUE KEY") {
			t.Errorf("a duplicate ID after the advice: %v", err)
		}
	})
}
