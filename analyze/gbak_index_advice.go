package analyze

import (
	"regexp"
	"strings"

	"github.com/fbdiag/fbdiag/internal/shellarg"
)

// GbakAdvice is fbdiag's advice on one of gbak's error or warning
// messages: Message is the message as errors[] or warnings[] hold it
// (continuation lines joined), Advice what to run or change.
type GbakAdvice struct {
	Message string `json:"message"`
	Advice  string `json:"advice"`
	// Stopped marks the advice on the index gbak stopped at, which the
	// advice on the indices before it points to: the one a summary of
	// the run quotes (not in JSON: advice[] reads in log order).
	Stopped bool `json:"-"`
}

// maxIndexAdvice bounds the failed indices advised on: a restore with
// thousands (firebird#8170: 3000+ after one bad key) needs the same steps
// for each, and memory should not grow with a broken log's error lines.
const maxIndexAdvice = 1000

// indexFailure is an index gbak could not activate ("cannot commit index
// X" and the status vector joined to it), with the count of steps seen
// when it failed: a step after it means gbak went on.
type indexFailure struct {
	name, msg string
	steps     int
	// constraint: name is a primary or unique key's (a restore without
	// -v names no index), not its index's.
	constraint bool
	// refused: gbak could not set the index inactive (the error or the
	// next one: "action cancelled by trigger … Cannot deactivate index
	// used by a PRIMARY/UNIQUE constraint") and stopped.
	refused bool
}

// refusal is the system trigger's refusal to deactivate the index.
func refusal(msg string) bool {
	return strings.Contains(msg, "Cannot deactiv") || strings.Contains(msg, "action cancelled by trigger")
}

// stoppedAt is the failure gbak stopped at, nil when it went on or the
// log does not say: one it could not set inactive, or the last one when
// gbak exited before another step.
func (b *GbakTimelineBuilder) stoppedAt() *indexFailure {
	for i := range b.failures {
		if b.failures[i].refused {
			return &b.failures[i]
		}
	}
	// (a foreign key or a plain unique index is set inactive, so an
	// exit right after one is another error's)
	if n := len(b.failures); n > 0 && b.exited && b.failures[n-1].steps == b.steps {
		if f := &b.failures[n-1]; f.constraint || uniqueConstraint.MatchString(f.msg) {
			return f
		}
	}
	return nil
}

// What gbak says about the rows of a failed index (Firebird 2.5 to 6.0;
// the same words in every version this project has logs of).
const (
	uniqueConstraintWords = "violation of PRIMARY or UNIQUE KEY constraint "
	uniqueIndexWords      = "attempt to store duplicate value (visible to active transactions) in unique index "
)

var (
	// A name is "X" up to 5.0, "SCHEMA"."X" in 6.0 (quotes doubled).
	uniqueConstraint = regexp.MustCompile(regexp.QuoteMeta(uniqueConstraintWords) + `(` + quotedName + `) on table (` + quotedName + `)`)
	uniqueIndex      = regexp.MustCompile(regexp.QuoteMeta(uniqueIndexWords) + `(` + quotedName + `)`)
	foreignKey       = regexp.MustCompile(`violation of FOREIGN KEY constraint (` + quotedName + `) on table (` + quotedName + `)`)
	problematicKey   = regexp.MustCompile(`Problematic key value is (\(.*?\))(?:;|$)`)
)

const quotedName = `(?:"(?:[^"]|"")*"\.)?"(?:[^"]|"")*"`

// unquoteName is the name gbak prints in quotes; a schema-qualified one
// (6.0) stays as printed, in its quotes.
func unquoteName(quoted string) string {
	if strings.Contains(quoted, `"."`) || len(quoted) < 2 {
		return quoted
	}
	return strings.ReplaceAll(quoted[1:len(quoted)-1], `""`, `"`)
}

// splitQualified is the schema and the name of a name 6.0 printed
// qualified ("PUBLIC"."PK_A3": PUBLIC, PK_A3, quotes undoubled), else ""
// and name.
func splitQualified(name string) (schema, bare string) {
	if !strings.HasPrefix(name, `"`) {
		return "", name
	}
	for i := 1; i < len(name); i++ {
		if name[i] != '"' {
			continue
		}
		if i+1 < len(name) && name[i+1] == '"' {
			i++ // a doubled quote
			continue
		}
		if !strings.HasPrefix(name[i+1:], `."`) || !strings.HasSuffix(name, `"`) || len(name) < i+4 {
			break
		}
		undouble := func(q string) string { return strings.ReplaceAll(q[1:len(q)-1], `""`, `"`) }
		return undouble(name[:i+1]), undouble(name[i+2:])
	}
	return "", name
}

// sqlNameOf writes a name gbak prints in quotes the way a DBA types it.
func sqlNameOf(quoted string) string { return indexIdent(unquoteName(quoted)) }

// indexIdent writes a name for SQL: as printed when gbak qualified and
// quoted it (6.0), else QuoteIdent.
func indexIdent(name string) string {
	if strings.HasPrefix(name, `"`) {
		return name
	}
	return QuoteIdent(name)
}

// gbakIndexAdvice is the advice for an index gbak could not activate.
//
// What gbak does then depends on the index and the version
// (src/burp/restore.epp, RESTORE_restore; tags v3.0.11, v4.0.7, v5.0.1,
// v5.0.2 of FirebirdSQL/firebird):
//   - up to 5.0.1, a deferred index that is no foreign key is set
//     inactive when its build fails; the system trigger refuses that for
//     the index of a primary or unique key ("action cancelled by trigger
//     … Cannot deactivate index used by a PRIMARY/UNIQUE constraint") and
//     gbak stops: "Exiting before completion due to errors" (public 09,
//     firebird#7269; this machine's 3.0.11, testdata/gbak/fb30-restore-pk-duplicate.log).
//     The database file stays, in single-user shutdown, with the steps
//     after the indices not run, so a new restore needs -rep (3.0.11:
//     "database … already exists. To replace it, use the -REP switch").
//   - a foreign key (rolled back in its own transaction) or a unique
//     index that is no constraint stays inactive, gbak goes on and leaves
//     the database offline: "Database is not online due to failure to
//     activate one or more indices" (public 10, firebird#7465; 3.0.11
//     exits with code 2 since that fix; testdata/gbak/
//     fb30-restore-fk-orphan.log, fb30-restore-unique-duplicate.log).
//   - 5.0.2 and later (firebird#8170) go on for every deferred index.
//   - without -v only foreign keys and expression indices are deferred;
//     the others are built by the commit after "creating indexes", and
//     there, in every version, a unique index that is no constraint is
//     set inactive (gbak goes on: messages 240-243) and a primary or
//     unique key's violation stops gbak, with no "cannot commit index"
//     line: the error names the constraint, not its index (3.0.11 here:
//     "violation of PRIMARY or UNIQUE KEY constraint "PK_A3" on table
//     "A3"", then "Exiting before completion due to errors").
//
// On 3.0.11 this machine checked each step advised: ALTER INDEX … ACTIVE
// fails with gbak's error until the rows are fixed and then activates the
// index, for a foreign key and a unique index in the offline database
// (SYSDBA's single attachment) and for a primary key restored with -i;
// gfix -online then brings the database online; gbak -i restores every
// index inactive and the database online; an index of a foreign key does
// not activate before its primary key's ("Partner index does not exist or
// is inactive"). gbak's own words for a unique index it could not build
// at "creating indexes" are the same steps (restore.epp, messages 242 and
// 243: delete or update the duplicates, then ALTER INDEX "X" ACTIVE);
// gbak(1) of firebird3.0-utils: -i, -inactive, restores the indices
// inactive, "to restore a backup containing data inconsistent with
// foreign key/unique constraints" (its note that since 3.0 gbak leaves
// any problematic index inactive by itself does not hold for a primary
// key: 3.0.11 stopped here).
// stop is the failure gbak stopped at (stoppedAt).
func (b *GbakTimelineBuilder) gbakIndexAdvice(f, stop *indexFailure) string {
	ix := indexIdent(f.name)
	why := f.msg
	if strings.HasPrefix(why, "cannot commit index ") {
		if i := strings.Index(why, ": "); i >= 0 {
			why = why[i+2:]
		} else {
			why = ""
		}
	}
	key := ""
	if m := problematicKey.FindStringSubmatch(why); m != nil {
		key = " " + m[1]
	}
	var fix string
	uc, fk := uniqueConstraint.FindStringSubmatch(why), foreignKey.FindStringSubmatch(why)
	switch {
	case uc != nil:
		fix = "delete or change the rows of " + sqlNameOf(uc[2]) + " that repeat the key" + key
	case uniqueIndex.MatchString(why):
		fix = "delete or change the rows that repeat the key" + key + " in the table of " + ix
	case fk != nil:
		fix = "delete the rows of " + sqlNameOf(fk[2]) + " that reference no row" + key +
			" or add the rows they reference"
	case strings.HasPrefix(why, "invalid database handle"):
		// public 15: the index workers of a Classic server could not
		// attach to the database the restore holds in shutdown; nothing
		// is wrong with the rows (firebird#8263, fixed in 5.0.2).
		return "the index build failed because gbak's parallel workers could not attach to the database (firebird#8263: " +
			"Firebird 5.0.0 and 5.0.1 Classic with ParallelWorkers above 1 in firebird.conf; fixed in 5.0.2), not because of its rows: " +
			"restore again with " + b.restoreCommand("-par 1", "--parallel 1") + ", or with ParallelWorkers = 1 in firebird.conf"
	default:
		// (the status vector's first line is often the generic one)
		cause, _, _ := strings.Cut(strings.TrimPrefix(why, "unsuccessful metadata update; "), "; ")
		if cause == "" {
			fix = "remove the cause in gbak's error"
		} else {
			fix = "remove the cause gbak gives (" + cause + ")"
		}
	}
	activate := "ALTER INDEX " + ix + " ACTIVE"
	if f.constraint {
		// The index of a named constraint has its name unless it was
		// made USING INDEX another; an unnamed one's (INTEG_n) is
		// RDB$PRIMARYn or RDB$n: the catalogue says.
		// (6.0 prints "SCHEMA"."NAME"; the catalogue keeps the schema in
		// a column of its own, RDB$SCHEMA_NAME)
		schema, name := splitQualified(f.name)
		where := "RDB$CONSTRAINT_NAME = " + sqlString(name)
		if schema != "" {
			where = "RDB$SCHEMA_NAME = " + sqlString(schema) + " AND " + where
		}
		query := "SELECT RDB$INDEX_NAME FROM RDB$RELATION_CONSTRAINTS WHERE " + where
		if strings.HasPrefix(name, "INTEG_") {
			activate = "ALTER INDEX ACTIVE of the index " + query + " names"
		} else {
			activate += " (the constraint's index has its name unless made USING INDEX: " + query + ")"
		}
		ix = "constraint " + ix
	}
	why7269 := "before 5.0.2 Firebird cannot leave the index of a primary or unique key inactive (firebird#7269)"
	if !strings.HasPrefix(f.msg, "cannot commit index ") {
		why7269 = "without -v a primary or unique key's index is built by the commit after the data, and gbak stops " +
			"when that fails, in every version"
	}
	switch {
	case stop == f:
		return "gbak stopped at " + ix + ": " + why7269 + ", and " + b.leftBehind() + ": " +
			"restore again with every index inactive (" +
			b.restoreCommand("-i", "--inactive") + "), " + fix + ", then " + activate + ", then the other indices -i left inactive, foreign keys last " +
			"(they need their primary key active)"
	case stop != nil:
		// gbak went on past this one, and stopped at a later index:
		// the database to fix is the one restored again with -i.
		return "gbak went on without " + ix + " but stopped later, at " + indexIdent(stop.name) + ": in the database restored " +
			"again with every index inactive (the advice on " + indexIdent(stop.name) + "), " + fix + ", then " + activate
	case b.exited && !b.notOnline:
		// went on, then stopped on an error that is no index's: the
		// database file is unfinished, whatever this index's state
		return "gbak went on without " + ix + " but stopped later on another error: remove that cause and restore again (" +
			b.restoreCommand("", "") + "); if " + ix + " fails again, " + fix + ", then " + activate + " and gfix -online"
	case b.notOnline || b.steps > f.steps:
		return "gbak went on without " + ix + " and left the database offline: in it (SYSDBA or the owner, one connection), " + fix +
			", then " + activate + "; when every index gbak names is active, gfix -online" + b.databaseArg() +
			" (gfix -online alone brings it online with the index inactive)"
	}
	return "the log ends before it says whether gbak went on without " + ix + " (5.0.2 and later; before, for a foreign key or a " +
		"unique index that is no constraint) or stopped (before 5.0.2, for a primary or unique key); what works in both cases: " +
		"restore again with every index inactive (" + b.restoreCommand("-i", "--inactive") + "), " + fix + ", then " + activate +
		", then the other indices -i left inactive, foreign keys last (they need their primary key active)"
}

// unnamedKeyAdvice is the advice on the trigger's refusal to set the
// index of a primary or unique key inactive (firebird#7269) when no line
// before it names the index: the log was cut there (fbdiag restore's,
// when the driver lost gbak's last lines with its error, parse.GbakCut).
// The index failed to build as gbakIndexAdvice says; restored again with
// -i, the index whose rows repeat a key refuses ALTER INDEX … ACTIVE with
// the constraint, the table and the key ("violation of PRIMARY or UNIQUE
// KEY constraint "INTEG_2" on table "P"", "Problematic key value is ("ID"
// = 305419896)": checked on 3.0.11), which names the rows to fix.
func (b *GbakTimelineBuilder) unnamedKeyAdvice() string {
	return "gbak stopped: it could not build the index of a primary or unique key, whose rows repeat a key, and before 5.0.2 " +
		"Firebird cannot leave that index inactive (firebird#7269); the lines that named the index are not in the log, and " +
		b.leftBehind() + ": restore again with every index inactive (" + b.restoreCommand("-i", "--inactive") +
		"), then ALTER INDEX … ACTIVE each index -i left inactive (SELECT RDB$INDEX_NAME FROM RDB$INDICES WHERE RDB$INDEX_INACTIVE = 1), " +
		"primary and unique keys first, foreign keys last (they need their primary key active): the one whose rows repeat a key " +
		"refuses with the constraint, the table and the key's value; delete or change those rows, then activate it"
}

// leftBehind is what a restore gbak stopped left: an unfinished database
// file, or nothing, when fbdiag restore deleted it (parse.GbakRemoved).
func (b *GbakTimelineBuilder) leftBehind() string {
	if b.restored.Removed {
		return "fbdiag deleted the unfinished database it left"
	}
	return "the database file it left is unfinished"
}

// maxBackupVolumes bounds the backup files a restore's advice names:
// past it, a log of something else, and the command names none.
const maxBackupVolumes = 100

// restoreArgs are the backup (each of its volumes) and the database of
// the restore when the log names them (" backup.fbk /data/db.fdb"), else
// "", for a command line.
func (b *GbakTimelineBuilder) restoreArgs() string {
	if len(b.backupFiles) == 0 || len(b.backupFiles) >= maxBackupVolumes || b.database == "" {
		return ""
	}
	args := ""
	for _, f := range b.backupFiles {
		args += " " + shellarg.Word(f)
	}
	return args + " " + shellarg.Word(b.database)
}

// restoreCommand restores the log's backup again with the gbak switches
// given ("-i"): gbak -rep -i BACKUP DATABASE. When fbdiag restore
// --replace left DATABASE as it was (untouched), gbak -rep would replace
// it at once, before the new one is complete: then it is fbdiag restore
// --replace with the same choice as its flag (fbdiagFlag, "--inactive").
// When fbdiag restore deleted the database gbak had begun, nothing is
// there to replace: fbdiag restore with that flag, as the run was made.
func (b *GbakTimelineBuilder) restoreCommand(gbakSwitches, fbdiagFlag string) string {
	if b.restored.Untouched || b.restored.Removed {
		cmd := "fbdiag restore"
		if b.restored.Untouched {
			cmd += " --replace"
		}
		if fbdiagFlag != "" {
			cmd += " " + fbdiagFlag
		}
		cmd += b.restoreArgs() + ", with the --server of the restore that failed"
		if b.restored.Untouched {
			cmd += ": it replaces the database only once the new one is complete, where gbak -rep would replace it at once"
		}
		return cmd
	}
	cmd := "gbak -rep"
	if gbakSwitches != "" {
		cmd += " " + gbakSwitches
	}
	return cmd + b.restoreArgs()
}

// databaseArg is " DATABASE" when the log names the database restored:
// where fbdiag restore kept it, when it says so.
func (b *GbakTimelineBuilder) databaseArg() string {
	switch {
	case b.database == "":
		return ""
	case b.restored.KeptAs != "":
		return " " + shellarg.Word(b.restored.KeptAs)
	}
	return " " + shellarg.Word(b.database)
}
