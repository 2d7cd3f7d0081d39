package analyze

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// wantAdvice checks a timeline's advice: message and advice, in order.
func wantAdvice(t *testing.T, tl *Timeline, want ...GbakAdvice) {
	t.Helper()
	if len(tl.Advice) != len(want) {
		t.Fatalf("%s: %d advice, want %d: %+v", tl.File, len(tl.Advice), len(want), tl.Advice)
	}
	for i := range want {
		if tl.Advice[i].Message != want[i].Message {
			t.Errorf("%s: advice %d on\n%q\nwant on\n%q", tl.File, i, tl.Advice[i].Message, want[i].Message)
		}
		if tl.Advice[i].Advice != want[i].Advice {
			t.Errorf("%s: advice %d\n%q\nwant\n%q", tl.File, i, tl.Advice[i].Advice, want[i].Advice)
		}
	}
}

// A restore that failed on an index had no advice: gbak's own words end
// with "Run gfix -online", which brings the database online without the
// index, and say nothing when gbak stopped. Each failed index now gets
// the steps that work for what gbak did, as Firebird 3.0.11 on this
// machine did them (testdata/gbak/README.md).

// This machine's 3.0.11: a duplicate in a primary key stops the restore
// (the trigger refuses to deactivate its index): restore again with -i.
func TestGbakIndexAdviceStoppedAtPrimaryKey(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if tl.Outcome != GbakFailed || len(tl.Errors) != 3 {
		t.Fatalf("outcome %s, errors %q", tl.Outcome, tl.Errors)
	}
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 305419896)`,
		Advice: `gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269), ` +
			`and the database file it left is unfinished: restore again with every index inactive (gbak -rep -i pk.fbk localhost:/tmp/h-radvice/db/pk.fdb), ` +
			`delete or change the rows of A3 that repeat the key ("ID" = 305419896), then ALTER INDEX PK_A3 ACTIVE, ` +
			`then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
	})
}

// This machine's 3.0.11: an orphan row of a foreign key and a duplicate
// in a unique index (no constraint) leave the index inactive, and gbak
// goes on and leaves the database offline.
func TestGbakIndexAdviceWentOn(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-fk-orphan.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index FK_D_M: violation of FOREIGN KEY constraint "FK_D_M" on table "D"; Foreign key reference target does not exist; ` +
			`Problematic key value is ("M_ID" = 573785173)`,
		Advice: `gbak went on without FK_D_M and left the database offline: in it (SYSDBA or the owner, one connection), ` +
			`delete the rows of D that reference no row ("M_ID" = 573785173) or add the rows they reference, then ALTER INDEX FK_D_M ACTIVE; ` +
			`when every index gbak names is active, gfix -online localhost:/tmp/h-radvice/db/fk.fdb (gfix -online alone brings it online with the index inactive)`,
	})
	tl = timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-unique-duplicate.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"; ` +
			`Problematic key value is ("CODE" = 286331153)`,
		Advice: `gbak went on without UX_U_CODE and left the database offline: in it (SYSDBA or the owner, one connection), ` +
			`delete or change the rows that repeat the key ("CODE" = 286331153) in the table of UX_U_CODE, then ALTER INDEX UX_U_CODE ACTIVE; ` +
			`when every index gbak names is active, gfix -online localhost:/tmp/h-radvice/db/ux.fdb (gfix -online alone brings it online with the index inactive)`,
	})
}

// This machine's 3.0.11: gbak went on past the unique index and stopped
// at the primary key; the database to fix the first in is the one
// restored again with -i, not the unfinished one.
func TestGbakIndexAdviceWentOnThenStopped(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-unique-then-pk.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index UX_U_CODE: attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"; ` +
			`Problematic key value is ("CODE" = 286331153)`,
		Advice: `gbak went on without UX_U_CODE but stopped later, at PK_A3: in the database restored again with every index inactive ` +
			`(the advice on PK_A3), delete or change the rows that repeat the key ("CODE" = 286331153) in the table of UX_U_CODE, then ALTER INDEX UX_U_CODE ACTIVE`,
	}, GbakAdvice{
		Message: `cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 305419896)`,
		Advice: `gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269), ` +
			`and the database file it left is unfinished: restore again with every index inactive (gbak -rep -i all.fbk localhost:/tmp/h-radvice/db/all.fdb), ` +
			`delete or change the rows of A3 that repeat the key ("ID" = 305419896), then ALTER INDEX PK_A3 ACTIVE, ` +
			`then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
	})
	// The restore the advice asks for (gbak -c -i of the same backup)
	// completes with every index inactive: nothing to advise.
	tl = timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate-inactive.log"))
	if tl.Outcome != GbakCompleted || len(tl.Advice) != 0 || tl.Advice == nil {
		t.Errorf("-i restore: outcome %s, advice %#v", tl.Outcome, tl.Advice)
	}
}

// The public logs: 09 (firebird#7269, 2.5/3.0) has the refusal to
// deactivate as an error of its own and no "Exiting" line (the excerpt
// is cut); 10 (firebird#7465, 3.0.10) went on; 15 (firebird#8263) failed
// for its workers, not its rows; 17 (2.x) on a foreign key whose types
// differ from its primary key's.
func TestGbakIndexAdvicePublic(t *testing.T) {
	tl := timelineOf(t, testutil.Corpus(t, "public", "gbak", "09_restore_deferred_index_failure_issue7269.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index PK_A3: violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 9)`,
		Advice: `gbak stopped at PK_A3: before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269), ` +
			`and the database file it left is unfinished: restore again with every index inactive (gbak -rep -i), ` +
			`delete or change the rows of A3 that repeat the key ("ID" = 9), then ALTER INDEX PK_A3 ACTIVE, ` +
			`then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
	})
	tl = timelineOf(t, testutil.Corpus(t, "public", "gbak", "10_fb3010_restore_index_fail_not_online_issue7465.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index FK_NAGL_NAGL_ID_B_NAGL_BL: violation of FOREIGN KEY constraint "FK_NAGL_NAGL_ID_B_NAGL_BL" on table "NAGL"; ` +
			`Foreign key reference target does not exist; Problematic key value is ("ID_NAGL" = 278228)`,
		Advice: `gbak went on without FK_NAGL_NAGL_ID_B_NAGL_BL and left the database offline: in it (SYSDBA or the owner, one connection), ` +
			`delete the rows of NAGL that reference no row ("ID_NAGL" = 278228) or add the rows they reference, then ALTER INDEX FK_NAGL_NAGL_ID_B_NAGL_BL ACTIVE; ` +
			`when every index gbak names is active, gfix -online (gfix -online alone brings it online with the index inactive)`,
	})
	tl = timelineOf(t, testutil.Corpus(t, "public", "gbak", "15_fb5_classic_parallel_restore_error_issue8263.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index PK_XYZ: invalid database handle (no active connection)`,
		Advice: `the index build failed because gbak's parallel workers could not attach to the database (firebird#8263: ` +
			`Firebird 5.0.0 and 5.0.1 Classic with ParallelWorkers above 1 in firebird.conf; fixed in 5.0.2), not because of its rows: ` +
			`restore again with gbak -rep -par 1, or with ParallelWorkers = 1 in firebird.conf`,
	})
	tl = timelineOf(t, testutil.Corpus(t, "public", "gbak", "17_fb2x_restore_index_error_gedemin1783_ru.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index RDB$FOREIGN394: unsuccessful metadata update; partner index segment no 1 has incompatible data type`,
		Advice: `gbak went on without RDB$FOREIGN394 and left the database offline: in it (SYSDBA or the owner, one connection), ` +
			`remove the cause gbak gives (partner index segment no 1 has incompatible data type), then ALTER INDEX RDB$FOREIGN394 ACTIVE; ` +
			`when every index gbak names is active, gfix -online (gfix -online alone brings it online with the index inactive)`,
	})
}

// A log cut after the failure says neither: the steps that work on every
// version (the -i restore), and that it cannot tell. This machine's
// foreign key log, cut after the index's error lines; a name that needs
// quotes in SQL is quoted.
func TestGbakIndexAdviceUnknown(t *testing.T) {
	data, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-fk-orphan.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cut := strings.ReplaceAll(strings.Join(lines[:78], ""), "FK_D_M", "fk d-m")
	tl, err := ReadGbakTimeline(strings.NewReader(cut), "cut.log")
	if err != nil {
		t.Fatal(err)
	}
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index fk d-m: violation of FOREIGN KEY constraint "fk d-m" on table "D"; Foreign key reference target does not exist; ` +
			`Problematic key value is ("M_ID" = 573785173)`,
		Advice: `the log ends before it says whether gbak went on without "fk d-m" (5.0.2 and later; before, for a foreign key or a unique index ` +
			`that is no constraint) or stopped (before 5.0.2, for a primary or unique key); what works in both cases: restore again with every ` +
			`index inactive (gbak -rep -i fk.fbk localhost:/tmp/h-radvice/db/fk.fdb), delete the rows of D that reference no row ("M_ID" = 573785173) ` +
			`or add the rows they reference, then ALTER INDEX "fk d-m" ACTIVE, then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
	})
}

// gbak went on past a foreign key, then stopped on an error no index
// caused: the database is unfinished, so not "gfix -online" but restore
// again. This machine's foreign key log with its finishing steps cut and
// a fatal error put after them.
func TestGbakIndexAdviceWentOnThenExited(t *testing.T) {
	data, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-fk-orphan.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	log := strings.Join(lines[:80], "") + "gbak: ERROR:I/O error during \"write\" operation for file \"/tmp/h-radvice/db/fk.fdb\"\n" +
		"gbak:Exiting before completion due to errors\n"
	tl, err := ReadGbakTimeline(strings.NewReader(log), "exited.log")
	if err != nil {
		t.Fatal(err)
	}
	wantAdvice(t, tl, GbakAdvice{
		Message: `cannot commit index FK_D_M: violation of FOREIGN KEY constraint "FK_D_M" on table "D"; Foreign key reference target does not exist; ` +
			`Problematic key value is ("M_ID" = 573785173)`,
		Advice: `gbak went on without FK_D_M but stopped later on another error: remove that cause and restore again ` +
			`(gbak -rep fk.fbk localhost:/tmp/h-radvice/db/fk.fdb); if FK_D_M fails again, delete the rows of D that reference no row ` +
			`("M_ID" = 573785173) or add the rows they reference, then ALTER INDEX FK_D_M ACTIVE and gfix -online`,
	})
}

// Without -v (this machine's 3.0.11) there is no "cannot commit index"
// line: a primary key's duplicate stops gbak with an error that names
// the constraint, a unique index's names the index and gbak goes on.
// Neither had advice.
func TestGbakIndexAdviceWithoutVerbose(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate-no-v.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table "A3"; Problematic key value is ("ID" = 305419896)`,
		Advice: `gbak stopped at constraint PK_A3: without -v a primary or unique key's index is built by the commit after the data, ` +
			`and gbak stops when that fails, in every version, and the database file it left is unfinished: restore again with every ` +
			`index inactive (gbak -rep -i), delete or change the rows of A3 that repeat the key ("ID" = 305419896), then ALTER INDEX PK_A3 ACTIVE ` +
			`(the constraint's index has its name unless made USING INDEX: SELECT RDB$INDEX_NAME FROM RDB$RELATION_CONSTRAINTS ` +
			`WHERE RDB$CONSTRAINT_NAME = 'PK_A3'), then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
	})
	tl = timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-unique-duplicate-no-v.log"))
	wantAdvice(t, tl, GbakAdvice{
		Message: `attempt to store duplicate value (visible to active transactions) in unique index "UX_U_CODE"; Problematic key value is ("CODE" = 286331153)`,
		Advice: `gbak went on without UX_U_CODE and left the database offline: in it (SYSDBA or the owner, one connection), ` +
			`delete or change the rows that repeat the key ("CODE" = 286331153) in the table of UX_U_CODE, then ALTER INDEX UX_U_CODE ACTIVE; ` +
			`when every index gbak names is active, gfix -online (gfix -online alone brings it online with the index inactive)`,
	})
}

// Names as gbak prints them: up to 5.0 in quotes, written for SQL as a
// DBA types them (bare when they can be, quotes doubled); 6.0's
// schema-qualified ones as printed.
func TestGbakIndexAdviceNames(t *testing.T) {
	for _, c := range []struct{ printed, sql string }{
		{`"A3"`, `A3`},
		{`"order lines"`, `"order lines"`},
		{`"say ""hi"""`, `"say ""hi"""`},
		{`"PUBLIC"."A3"`, `"PUBLIC"."A3"`},
	} {
		if got := sqlNameOf(c.printed); got != c.sql {
			t.Errorf("%s: %s, want %s", c.printed, got, c.sql)
		}
	}
	log := "gbak:cannot commit index \"PUBLIC\".\"PK_A3\"\n" +
		"gbak: ERROR:violation of PRIMARY or UNIQUE KEY constraint \"PUBLIC\".\"PK_A3\" on table \"PUBLIC\".\"A3\"\n" +
		"gbak: ERROR:    Problematic key value is (\"ID\" = 9)\n" +
		"gbak:Database is not online due to failure to activate one or more indices.\n"
	tl, err := ReadGbakTimeline(strings.NewReader(log), "fb6.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Advice) != 1 || !strings.Contains(tl.Advice[0].Advice, `the rows of "PUBLIC"."A3" that repeat the key ("ID" = 9), then ALTER INDEX "PUBLIC"."PK_A3" ACTIVE;`) {
		t.Errorf("advice %+v", tl.Advice)
	}
}

// An exit right after a foreign key's failure is another error's (gbak
// sets a foreign key inactive and goes on), not a stop at the key.
func TestGbakIndexAdviceExitAfterForeignKey(t *testing.T) {
	log := "gbak:cannot commit index FK_D_M\n" +
		"gbak: ERROR:violation of FOREIGN KEY constraint \"FK_D_M\" on table \"D\"\n" +
		"gbak: ERROR:    Foreign key reference target does not exist\n" +
		"gbak: ERROR:    Problematic key value is (\"M_ID\" = 573785173)\n" +
		"gbak: ERROR:connection lost to database\n" +
		"gbak:Exiting before completion due to errors\n"
	tl, err := ReadGbakTimeline(strings.NewReader(log), "x.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Advice) != 1 || !strings.HasPrefix(tl.Advice[0].Advice, "gbak went on without FK_D_M but stopped later on another error: remove that cause and restore again (gbak -rep); ") {
		t.Errorf("advice %+v", tl.Advice)
	}
}

// Firebird 6.0 qualifies and quotes the names in its errors (README.schemas:
// "Object names included in error or informative messages are now
// qualified and quoted"), and RDB$RELATION_CONSTRAINTS keeps the schema
// in RDB$SCHEMA_NAME apart from RDB$CONSTRAINT_NAME. A restore without -v
// names the constraint, not its index: the catalogue query looked for
// RDB$CONSTRAINT_NAME = '"PUBLIC"."PK_A3"' (no row), and an unnamed key,
// "PUBLIC"."INTEG_5", was told ALTER INDEX "PUBLIC"."INTEG_5" ACTIVE, an
// index that does not exist (its index is RDB$PRIMARYn).
func TestGbakIndexAdviceWithoutVerboseQualified(t *testing.T) {
	for _, c := range []struct{ constraint, activate string }{
		{`"PUBLIC"."PK_A3"`, `ALTER INDEX "PUBLIC"."PK_A3" ACTIVE (the constraint's index has its name unless made USING INDEX: ` +
			`SELECT RDB$INDEX_NAME FROM RDB$RELATION_CONSTRAINTS WHERE RDB$SCHEMA_NAME = 'PUBLIC' AND RDB$CONSTRAINT_NAME = 'PK_A3')`},
		{`"PUBLIC"."INTEG_5"`, `ALTER INDEX ACTIVE of the index SELECT RDB$INDEX_NAME FROM RDB$RELATION_CONSTRAINTS ` +
			`WHERE RDB$SCHEMA_NAME = 'PUBLIC' AND RDB$CONSTRAINT_NAME = 'INTEG_5' names`},
		{`"Weird ""Schema"""."pk a3"`, `ALTER INDEX "Weird ""Schema"""."pk a3" ACTIVE (the constraint's index has its name unless made USING INDEX: ` +
			`SELECT RDB$INDEX_NAME FROM RDB$RELATION_CONSTRAINTS WHERE RDB$SCHEMA_NAME = 'Weird "Schema"' AND RDB$CONSTRAINT_NAME = 'pk a3')`},
	} {
		msg := `violation of PRIMARY or UNIQUE KEY constraint ` + c.constraint + ` on table "PUBLIC"."A3"; Problematic key value is ("ID" = 9)`
		log := "gbak: ERROR:violation of PRIMARY or UNIQUE KEY constraint " + c.constraint + " on table \"PUBLIC\".\"A3\"\n" +
			"gbak: ERROR:    Problematic key value is (\"ID\" = 9)\n" +
			"gbak:Exiting before completion due to errors\n"
		tl, err := ReadGbakTimeline(strings.NewReader(log), "fb6-no-v.log")
		if err != nil {
			t.Fatal(err)
		}
		wantAdvice(t, tl, GbakAdvice{
			Message: msg,
			Advice: `gbak stopped at constraint ` + c.constraint + `: without -v a primary or unique key's index is built by the commit after the data, ` +
				`and gbak stops when that fails, in every version, and the database file it left is unfinished: restore again with every ` +
				`index inactive (gbak -rep -i), delete or change the rows of "PUBLIC"."A3" that repeat the key ("ID" = 9), then ` + c.activate +
				`, then the other indices -i left inactive, foreign keys last (they need their primary key active)`,
		})
	}
}

// A backup in volumes (gbak -b DB v1.fbk 300000 v2.fbk) is restored from
// all of them: 3.0.11 here logs "opened file" for each, first to last,
// before "created database". The advice named the last alone, "gbak -rep
// -i v2.fbk DB", which 3.0.11 refuses ("file v2.fbk out of sequence"; v1
// alone: "cannot open backup file DB", the database read as the next
// volume); "gbak -rep -i v1.fbk v2.fbk DB" restores. This machine's
// failed primary key log as if restored from two volumes.
func TestGbakIndexAdviceVolumes(t *testing.T) {
	data, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if err != nil {
		t.Fatal(err)
	}
	one := "gbak:    0.000  0.000      0      0 opened file pk.fbk\n"
	if !strings.Contains(string(data), one) {
		t.Fatal("no opened file line")
	}
	log := strings.Replace(string(data), one, "gbak:    0.000  0.000      0      0 opened file /backup/pk 1.fbk\n"+
		"gbak:    0.001  0.001      0      0 opened file /backup/pk-2.fbk\n", 1)
	tl, err := ReadGbakTimeline(strings.NewReader(log), "volumes.log")
	if err != nil {
		t.Fatal(err)
	}
	want := `(gbak -rep -i '/backup/pk 1.fbk' /backup/pk-2.fbk localhost:/tmp/h-radvice/db/pk.fdb)`
	if len(tl.Advice) != 1 || !strings.Contains(tl.Advice[0].Advice, want) {
		t.Errorf("advice %+v, want it to hold %+v", tl.Advice, want)
	}
}

// The restore that stopped at PK_A3 has no total line: gbak failed inside
// PK_A3's build, whose reads and writes no line gives, so its deltas add
// up to the I/O so far, as its time is a lower bound (it gave 0 reads and
// 815 writes as the run's totals). The restore that went on has gbak's
// own total line.
func TestGbakFailedRunIOSoFar(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if !tl.TotalLowerBound || tl.TotalReads != nil || tl.TotalWrites != nil ||
		tl.ReadsSoFar == nil || *tl.ReadsSoFar != 0 || tl.WritesSoFar == nil || *tl.WritesSoFar != 815 {
		t.Errorf("lower bound %v, totals %v %v, so far %v %v", tl.TotalLowerBound, tl.TotalReads, tl.TotalWrites, derefI(tl.ReadsSoFar), derefI(tl.WritesSoFar))
	}
	tl = timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-fk-orphan.log"))
	if tl.TotalLowerBound || tl.TotalWrites == nil || *tl.TotalWrites != 844 || tl.WritesSoFar != nil {
		t.Errorf("fk-orphan: lower bound %v, writes %v, so far %v", tl.TotalLowerBound, derefI(tl.TotalWrites), derefI(tl.WritesSoFar))
	}
}

// A log that fbdiag restore ended with where it kept the database
// (parse.GbakKeptAs: restore --replace failed, the original left as it
// was) has its advice name the kept file, read whole or streamed; the
// line is no step and no skipped line. A log without a database it
// created (a backup's) keeps no such name.
func TestGbakIndexAdviceKeptAs(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-unique-duplicate.log"))
	if err != nil {
		t.Fatal(err)
	}
	const kept = "/tmp/h-radvice/db/.ux.fdb.failed-6ba893fc913b"
	withKept := string(raw) + parse.GbakKeptAs + kept + "\n"
	whole, err := parse.ReadGbak(strings.NewReader(withKept), "ux.log")
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := StreamGbakTimeline(strings.NewReader(withKept), "ux.log", GbakStream{})
	if err != nil {
		t.Fatal(err)
	}
	plain := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-unique-duplicate.log"))
	for _, tl := range []*Timeline{GbakTimeline(whole), streamed} {
		if len(tl.Advice) != 1 || len(plain.Advice) != 1 {
			t.Fatalf("advice %+v, without the line %+v", tl.Advice, plain.Advice)
		}
		want := strings.Replace(plain.Advice[0].Advice, "gfix -online localhost:/tmp/h-radvice/db/ux.fdb ", "gfix -online "+kept+" ", 1)
		if want == plain.Advice[0].Advice || tl.Advice[0].Advice != want {
			t.Errorf("advice\n%s\nwant\n%s", tl.Advice[0].Advice, want)
		}
		if len(tl.Notices) != len(plain.Notices) || tl.Outcome != plain.Outcome {
			t.Errorf("notices %+v, outcome %s; without the line %+v, %s", tl.Notices, tl.Outcome, plain.Notices, plain.Outcome)
		}
	}
	bareLog, err := parse.ReadGbak(strings.NewReader(string(raw)), "ux.log")
	if err != nil || whole.Restored.KeptAs != kept || bareLog.Restored.KeptAs != "" || len(whole.Lines) != 85 || len(bareLog.Lines) != 85 {
		t.Errorf("KeptAs %q, %d lines; without the line %q, %d lines (%v)", whole.Restored.KeptAs, len(whole.Lines), bareLog.Restored.KeptAs, len(bareLog.Lines), err)
	}
	backup, err := os.ReadFile(testutil.Testdata(t, "fb30", "shop-gbak-backup-v-st.log"))
	if err != nil {
		t.Fatal(err)
	}
	tl, err := StreamGbakTimeline(strings.NewReader(string(backup)+parse.GbakKeptAs+kept+"\n"), "b.log", GbakStream{})
	bare, berr := StreamGbakTimeline(strings.NewReader(string(backup)), "b.log", GbakStream{})
	if err != nil || berr != nil || len(tl.Notices) != len(bare.Notices) || len(tl.Notices) != 6 || len(tl.Advice) != len(bare.Advice) {
		t.Errorf("a backup log with the line: %v, notices %+v, advice %+v", err, tl.Notices, tl.Advice)
	}
}

// A log that fbdiag restore --replace ended with GbakUntouched (the
// original left as it was) advises restoring again with fbdiag restore
// --replace, which replaces it only once the new one is complete, and
// with its own flags for gbak's switches (--inactive for -i); the same
// log without the line keeps gbak -rep -i, right for a gbak -rep that
// already replaced the database.
func TestGbakIndexAdviceUntouched(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if err != nil {
		t.Fatal(err)
	}
	plain := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	tl, err := StreamGbakTimeline(strings.NewReader(string(raw)+parse.GbakUntouched+"\n"), "pk.log", GbakStream{})
	if err != nil {
		t.Fatal(err)
	}
	const gbakRep = "(gbak -rep -i pk.fbk localhost:/tmp/h-radvice/db/pk.fdb)"
	const fbdiagRep = "(fbdiag restore --replace --inactive pk.fbk localhost:/tmp/h-radvice/db/pk.fdb, with the --server of the restore " +
		"that failed: it replaces the database only once the new one is complete, where gbak -rep would replace it at once)"
	if len(plain.Advice) != 1 || len(tl.Advice) != 1 || !strings.Contains(plain.Advice[0].Advice, gbakRep) ||
		tl.Advice[0].Advice != strings.Replace(plain.Advice[0].Advice, gbakRep, fbdiagRep, 1) {
		t.Errorf("advice with the line:\n%+v\nwithout:\n%+v", tl.Advice, plain.Advice)
	}
	if len(tl.Notices) != len(plain.Notices) {
		t.Errorf("notices %+v, without the line %+v", tl.Notices, plain.Notices)
	}
}

// The log fbdiag restore writes when the driver lost the middle of
// gbak's "Problematic key value" line with the server's error
// (parse.GbakCut with the line's start, parse.GbakCutAfter with the
// fragment read after it, as a CI run on Firebird 3.0.11 had them):
// fbdiag gbak says where it is cut, and still advises on the index,
// without the key value it lost.
func TestGbakIndexAdviceCut(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if err != nil {
		t.Fatal(err)
	}
	const key = "gbak: ERROR:    Problematic key value is (\"ID\" = 305419896)\n"
	cut := strings.Replace(string(raw), key, parse.GbakCut+`"gbak: ERROR:    Problematic key val"`+"\n"+
		parse.GbakCutAfter+`"ue is (\"ID\" = 305419896)"`+"\n", 1)
	if cut == string(raw) {
		t.Fatal("no key value line in the sample")
	}
	tl, err := StreamGbakTimeline(strings.NewReader(cut), "pk.log", GbakStream{})
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(cut[:strings.Index(cut, parse.GbakCut)], "\n") + 1
	want := parse.Notice{File: "pk.log", Line: line, Msg: "gbak's output before its error is incomplete here (its last part came with the server's error, which the driver drops); the line it was printing began \"gbak: ERROR:    Problematic key val\""}
	after := parse.Notice{File: "pk.log", Line: line + 1, Msg: "gbak's output goes on after the part lost with its error with \"ue is (\\\"ID\\\" = 305419896)\", " +
		"the end of a line whose start was lost, or a whole line"}
	if !slices.Contains(tl.Notices, want) || !slices.Contains(tl.Notices, after) {
		t.Errorf("notices %+v, want %+v and %+v", tl.Notices, want, after)
	}
	if len(tl.Advice) != 1 || !strings.Contains(tl.Advice[0].Advice, "delete or change the rows of A3 that repeat the key, then ALTER INDEX PK_A3 ACTIVE") {
		t.Errorf("advice %+v", tl.Advice)
	}
}

// A log fbdiag restore wrote where the driver lost gbak's last kilobyte,
// from "restoring data for table P" to the key's value (a real one, 3.0.11):
// no line names the index gbak stopped at, and the trigger's refusal
// alone says a primary or unique key's index failed. The advice restores
// again with -i and activates the indices, the failing one naming its rows.
func TestGbakIndexAdviceUnnamedKey(t *testing.T) {
	tl := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate-cut.log"))
	const refused = "action cancelled by trigger (3) to preserve data integrity; Cannot deactivate index used by a PRIMARY/UNIQUE constraint"
	want := "gbak stopped: it could not build the index of a primary or unique key, whose rows repeat a key, and before 5.0.2 " +
		"Firebird cannot leave that index inactive (firebird#7269); the lines that named the index are not in the log, and the " +
		"database file it left is unfinished: restore again with every index inactive (gbak -rep -i " +
		"/var/lib/firebird/3.0/data/pkx.fbk /var/lib/firebird/3.0/data/pkx3.fdb), then ALTER INDEX … ACTIVE each index -i left " +
		"inactive (SELECT RDB$INDEX_NAME FROM RDB$INDICES WHERE RDB$INDEX_INACTIVE = 1), primary and unique keys first, foreign " +
		"keys last (they need their primary key active): the one whose rows repeat a key refuses with the constraint, the table " +
		"and the key's value; delete or change those rows, then activate it"
	if len(tl.Advice) != 1 || tl.Advice[0] != (GbakAdvice{Message: refused, Advice: want}) {
		t.Errorf("advice %+v", tl.Advice)
	}
	if len(tl.Notices) != 1 || tl.Notices[0].Line != 16 || !strings.Contains(tl.Notices[0].Msg, `began "gbak:    0.084  0.000      0      5 restor"`) {
		t.Errorf("notices %+v", tl.Notices)
	}
	// The same log with a line that names the index keeps the index's
	// advice, and this one is not given.
	named := timelineOf(t, testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	for _, a := range named.Advice {
		if strings.Contains(a.Advice, "the lines that named the index are not in the log") {
			t.Errorf("advice on a log that names the index: %+v", a)
		}
	}
}

// A restore fbdiag restore ran and cleaned up after (parse.GbakRemoved:
// it deleted the database gbak had begun) is advised to run again as
// fbdiag restore, and not told of an unfinished file; with
// parse.GbakUntouched too (a --replace), as fbdiag restore --replace.
func TestGbakIndexAdviceRemoved(t *testing.T) {
	raw, err := os.ReadFile(testutil.Testdata(t, "gbak", "fb30-restore-pk-duplicate.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lines, want string }{
		{parse.GbakRemoved + "\n", "and fbdiag deleted the unfinished database it left: restore again with every index inactive " +
			"(fbdiag restore --inactive pk.fbk localhost:/tmp/h-radvice/db/pk.fdb, with the --server of the restore that failed), "},
		{parse.GbakUntouched + "\n" + parse.GbakRemoved + "\n", "and fbdiag deleted the unfinished database it left: restore again " +
			"with every index inactive (fbdiag restore --replace --inactive pk.fbk localhost:/tmp/h-radvice/db/pk.fdb, with the --server " +
			"of the restore that failed: it replaces the database only once the new one is complete, where gbak -rep would replace it at once), "},
	} {
		tl, err := StreamGbakTimeline(strings.NewReader(string(raw)+c.lines), "pk.log", GbakStream{})
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Advice) != 1 || !strings.Contains(tl.Advice[0].Advice, c.want) {
			t.Errorf("with %q: advice %+v", c.lines, tl.Advice)
		}
	}
}
