package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fbdiag/fbdiag/internal/units"
)

// Restore runs gbak -c -v -st tdrw (and opt's switches) on the server,
// backupFile to database (both server paths), and streams the verbose log
// to w.
//
// The server is only ever asked to create a database, never to overwrite
// one. Where fbdiag can rename files in the database's folder (the server
// on this machine, the folder writable here), it restores under a
// temporary name beside it (.NAME.tmp-RANDOM) and gives the new database
// its name only after gbak reported success, so a failure or an
// interruption leaves nothing and never loses the original:
//
//   - without Replace an existing database is refused before anything
//     starts (KindExists);
//   - with Replace the original must not be in use: it is refused up front
//     if other attachments exist, and at the swap it is taken to full
//     shutdown with no wait for attachments (the server refuses if any
//     appeared, and then it stays online), the new one takes its name
//     in one step (renameat2 RENAME_EXCHANGE; elsewhere the original is
//     renamed aside, then the new one into place), and the original is
//     deleted. Any failure on the
//     way puts the original back online under its name.
//
// A run gbak finished past an error (an index it could not build, the
// database left offline) is an error too: it never replaces the
// original (see restoreFailed).
//
// Elsewhere (a remote server, an alias that does not resolve to a file
// here) a new database is restored directly under its name and Replace is
// refused: the Services API cannot rename files.
func (s Server) Restore(ctx context.Context, backupFile, database string, opt RestoreOptions, w io.Writer, progress func(Progress)) (*GbakRun, error) {
	run := &GbakRun{Server: s.Addr, Action: "restore", Database: database, BackupFile: backupFile, Switches: opt.Switches()}
	const op = "restore"
	object := backupFile + " to " + database
	fail := func(kind Kind, detail string) error {
		return &Error{Op: "restore to", Object: database, Server: s.Addr, Kind: kind, Detail: detail}
	}
	target := s.locate(database)
	// No swap is possible there, whether the database exists or not.
	if opt.Replace && !s.onThisMachine() {
		return run, fail(KindNotLocal, noSwap(target))
	}
	orig, err := s.inspect(ctx, database, target)
	if err != nil {
		return run, err
	}
	if orig.exists {
		if !opt.Replace {
			return run, fail(KindExists, "")
		}
		if orig.shut != nil {
			return run, orig.shut
		}
		if orig.path == "" {
			return run, fail(KindNotLocal, noSwap(target))
		}
		if orig.others > 0 {
			return run, fail(KindInUse, fmt.Sprintf("in use by %s; not replaced (--replace needs it unused)", units.Count(orig.others, "other attachment")))
		}
		if out := s.ownOutput(opt.Outputs, orig.path); out != "" {
			return run, fail(KindSameFile, ownOutputIs(out, orig.path))
		}
		target = s.locate(orig.path)
	}
	sm, err := s.gbakService(ctx, opt.Parallel, fail)
	if err != nil {
		return run, err
	}
	defer sm.Close()
	dest := database
	if target.local {
		s.noteLeftovers(target.path)
		dest = sibling(target.path, "tmp")
	}
	run.named(dest, database)
	err, logErr := s.gbak(ctx, sm, run, opt.spb(backupFile, dest), w, progress)
	if err != nil {
		ce := s.gbakError(op, object, run, err)
		if ctx.Err() != nil {
			ce.Kind, ce.Detail = KindInterrupted, ""
		} else if strings.HasPrefix(ce.Detail, "expected backup description record") {
			// gbak read the file's first record and found no backup's:
			// its words do not say so. A database given for its backup
			// (the arguments the wrong way round) is told apart here.
			what := "not a gbak backup, or one whose start is damaged"
			if s.onThisMachine() && filepath.IsAbs(backupFile) && IsDatabaseFile(backupFile) {
				what = "a Firebird database, not a gbak backup"
			}
			ce.Detail = backupFile + " is " + what + " (gbak: " + ce.Detail + ")"
		} else if ce.Kind == KindNoDatabase && strings.Contains(ce.Detail, `"open O_CREAT" operation`) {
			// The server could not create the file: no such folder, not
			// "database not found".
			ce.Kind = KindServer
			ce.Detail = "the server cannot create " + database + ": there is no folder " + path.Dir(cleanServerPath(database)) + " (" + ce.Detail + ")"
		} else if hint := s.relativeHere(backupFile); hint != "" && strings.HasPrefix(ce.Detail, "cannot open backup file "+backupFile) {
			ce.Detail = "the server found no file " + backupFile + " (gbak: " + ce.Detail + "); " + hint
		} else if strings.HasPrefix(ce.Detail, "cannot open backup file "+backupFile) && s.onThisMachine() && filepath.IsAbs(backupFile) {
			// gbak gives no reason; on this machine fbdiag can look.
			if _, serr := os.Stat(backupFile); os.IsNotExist(serr) {
				ce.Detail = "there is no file " + backupFile + " (gbak: " + ce.Detail + ")"
			} else if serr == nil {
				ce.Detail = "the server cannot read " + backupFile + ": its user (firebird on Debian) must be allowed to read it, and to enter its folders (gbak: " + ce.Detail + ")"
			}
		}
		ce.Detail = tempNamed(ce.Detail, dest, database)
		// After Ctrl-C, and maybe after a lost connection, the server
		// goes on restoring.
		ce.Outcome, run.Removed = restoreLeft(ce.Kind == KindInterrupted || ce.Kind == KindLost, target.local, run.created, dest, database, orig.exists)
		run.Untouched = orig.exists && target.local
		return run, ce
	}
	if run.Failure != "" {
		return run, restoreFailed(run, target, orig.exists, dest, database)
	}
	if target.local {
		cctx, cancel := context.WithTimeout(context.Background(), CleanupTimeout)
		defer cancel()
		if orig.exists {
			err = s.swap(cctx, target.path, dest)
			run.Replaced = err == nil
		} else if err = renameNoReplace(dest, target.path); err != nil {
			err = fail(KindServer, fmt.Sprintf("%v; the restored database is %s", err, dest))
		}
		if err != nil {
			return run, err
		}
	} else if !serverAbs(database) && s.Warn != nil {
		// A relative DATABASE was created in the server's working folder
		// (gbak and isql without a server prefix take the shell's): say
		// where, since the output names it as given. (An alias resolves
		// to another name and is not warned of.)
		if file, ferr := s.databaseFile(ctx, database); ferr == nil && file != database && strings.HasSuffix(file, "/"+database) {
			s.Warn(database + " was created as " + file + ": the server resolves a relative path in its own working folder, not in yours")
		}
	}
	if logErr != nil {
		return run, &Error{Op: "write the log of the restore to", Object: database, Server: s.Addr, Kind: KindServer,
			Detail: logErr.Error(), Outcome: "the restore itself is complete: " + database}
	}
	return run, nil
}

// restoreFailed answers a restore that gbak finished although part of it
// failed (an index it could not build over duplicate or orphan keys: it
// goes on without the index and leaves the database offline). Such a
// database never replaces the original, which stays as it was, online;
// a new one gets its name as gbak would leave it. The database gbak made
// is kept either way: fixing it may take minutes where restoring again
// takes hours.
func restoreFailed(run *GbakRun, target serverFile, replacing bool, dest, database string) error {
	e := &Error{Op: "restore", Object: run.BackupFile + " to " + database, Server: run.Server, Kind: KindServer,
		Detail: "gbak finished with errors: " + run.Failure}
	state := func(string) string { return "check it against the log, or delete it" }
	if run.offline {
		state = func(path string) string {
			return "offline (single-user maintenance): fix what the log names, then gfix -online" + gfixTarget(run.Server, path) + ", or delete it"
		}
	}
	switch {
	case replacing:
		// Named apart from a run's temporary file, so that the next run
		// says what it is (noteLeftovers).
		kept := sibling(target.path, "failed")
		if err := renameNoReplace(dest, kept); err != nil {
			kept = dest
		}
		run.KeptAs, run.Untouched = kept, true
		e.Outcome = database + " not replaced, untouched; the restored database is kept as " + kept + ", " + state(kept)
	case !target.local:
		e.Outcome = "the restored database is " + database + ", " + state(database)
	default:
		if err := renameNoReplace(dest, target.path); err != nil {
			run.KeptAs = dest
			e.Outcome = fmt.Sprintf("the restored database is %s (not named %s: %v), %s", dest, database, err, state(dest))
		} else {
			e.Outcome = "the restored database is " + database + ", " + state(database)
		}
	}
	return e
}

// noSwap refuses --replace where fbdiag cannot rename the files.
func noSwap(target serverFile) string {
	return "cannot replace it safely: " + target.why + ", and the Services API cannot rename files; restore to a new name and swap the files on the server"
}

// restoreLeft says what a failed or interrupted restore left, after
// removing what it can.
func restoreLeft(goesOn, local, created bool, dest, database string, replacing bool) (outcome string, removed bool) {
	untouched := database + " untouched"
	if !replacing {
		untouched = "nothing under " + database
	}
	if local {
		err := os.Remove(dest)
		if err != nil && !os.IsNotExist(err) {
			return fmt.Sprintf("partial database at %s, in single-user maintenance (%v): delete it; %s", dest, err, untouched), false
		}
		if goesOn {
			// Tested on Firebird 3.0.11: the restore goes on into the
			// deleted file and fails at its end, when it reopens it.
			return "Firebird cannot cancel a running restore: if the server goes on restoring into " + dest +
				", which fbdiag deleted, it leaves nothing when it ends; " + untouched, false
		}
		return "nothing left; " + untouched, err == nil
	}
	if goesOn {
		return "Firebird cannot cancel a running restore: if the server goes on restoring into " + database +
			", it leaves a complete database there when it succeeds, a partial one in single-user maintenance when it fails", false
	}
	if !created {
		return "gbak stopped before creating " + database + ": nothing was created", false
	}
	return "partial database at " + database + ", in single-user maintenance: delete it before restoring again", false
}

// original is what Restore knows of an existing database.
type original struct {
	exists bool
	path   string // the file on this machine, "" when not reachable here
	others int    // other attachments
	// shut is the refusal of an attachment to a database shut down
	// (gfix -shut full): it is there, and not to be replaced unseen.
	shut error
}

// inspect finds out whether database exists, where its file is and
// whether it is in use. A missing file is not an error; a login or
// network failure is, so that "cannot tell" is never taken for "absent".
func (s Server) inspect(ctx context.Context, database string, target serverFile) (original, error) {
	if target.local && !exists(database) {
		return original{}, nil
	}
	db, err := s.open(ctx, database)
	if err != nil {
		k := kindOf(err)
		if !target.local && absent(err) {
			return original{}, nil
		}
		if k == KindShutdown {
			// It exists; no attachment can tell whether it is in use
			// nor which file it is.
			return original{exists: true, shut: s.fail("restore to", database, err)}, nil
		}
		// Not there for fbdiag to look at: only the server's "not a valid
		// database" (and the like) says that a file is there.
		local := target.local && k != KindLogin && k != KindUnreachable && k != KindWireCrypt && k != KindAuth
		if local || k == KindNoDatabase {
			return original{}, &Error{Op: "restore to", Object: database, Server: s.Addr, Kind: KindServer,
				Detail: "it exists and the server cannot open it as a database; not replaced (" + oneLine(err.Error()) + ")"}
		}
		return original{}, s.fail("check database", database, err)
	}
	defer db.Close()
	o := original{exists: true}
	var name string
	err = db.QueryRowContext(ctx, `SELECT MON$DATABASE_NAME,
  (SELECT COUNT(*) FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID <> CURRENT_CONNECTION AND MON$SYSTEM_FLAG = 0)
FROM MON$DATABASE`).Scan(&name, &o.others)
	if err != nil {
		return original{}, s.fail("check database", database, err)
	}
	if f := s.locate(strings.TrimSpace(name)); f.local {
		o.path = f.path
	}
	return o, nil
}

// absent tells a database that does not exist from one the server cannot
// open ("not a valid database", a damaged header): that one is the
// user's file, not to be restored over nor reported as left by fbdiag.
// The operating system's words decide: POSIX's, and Windows' in English
// (a Windows server in another language is refused: the safe side).
func absent(err error) bool {
	msg := err.Error()
	return kindOf(err) == KindNoDatabase &&
		(strings.Contains(msg, "No such file or directory") || strings.Contains(msg, "cannot find the file specified"))
}

// swap puts the restored database tmp in the place of the original at
// path, which must not be in use.
func (s Server) swap(ctx context.Context, path, tmp string) error {
	fail := func(kind Kind, detail string) error {
		return &Error{Op: "replace", Object: path, Server: s.Addr, Kind: kind, Detail: detail}
	}
	if err := s.shutdownFull(ctx, path); err != nil {
		// The restored database is complete: kept under a name of its
		// own, so that the next run does not take it for a killed run's
		// file (noteLeftovers).
		kept := sibling(path, "restored")
		if renameNoReplace(tmp, kept) != nil {
			kept = tmp
		}
		switch {
		case strings.Contains(err.Error(), "shutdown unsuccessful"):
			// Checked unused before gbak started: someone attached since,
			// and the server shuts no database down under attachments
			// (-attach 0).
			return fail(KindInUse, fmt.Sprintf("someone attached to it during the restore, and the server does not shut a database down under open attachments (%s), so it was not replaced and stays online, untouched; the restored database is kept, complete, as %s: restore --replace again once they are gone, or delete it", oneLine(err.Error()), kept))
		case strings.Contains(err.Error(), "no permission for shutdown access"):
			// The restore ran as a user who may create databases but not
			// shut this one down (neither SYSDBA nor its owner).
			return fail(KindServer, fmt.Sprintf("permission denied: the user %s (ISC_USER) may not shut it down, which replacing it needs: only SYSDBA or the owner of the database may (%s); not replaced, online and untouched; the restored database is kept, complete, as %s", s.User, oneLine(err.Error()), kept))
		case strings.Contains(err.Error(), "Target shutdown mode is invalid"):
			// Someone took it to full shutdown while gbak restored: the
			// server refuses the same mode again. It is left as they
			// left it.
			return fail(KindServer, fmt.Sprintf("it was taken to full shutdown during the restore (%s), so it was not replaced and stays shut down; the restored database is kept, complete, as %s", oneLine(err.Error()), kept))
		}
		return fail(KindServer, fmt.Sprintf("it could not be shut down (%s), so it was not replaced; the restored database is kept, complete, as %s", oneLine(err.Error()), kept))
	}
	swapStep("shut down")
	// The restored file has the server's mode and owner (0660 or 0644
	// firebird:firebird on Debian); the original's may keep it from
	// other users, or open it to a group: the replacement takes them, as
	// a backup --force does the replaced backup's.
	if fi, err := os.Stat(path); err == nil {
		sameOwner(tmp, fi)
		if err := os.Chmod(tmp, fi.Mode().Perm()); err != nil && s.Warn != nil {
			s.Warn(fmt.Sprintf("the restored database could not be given the mode of %s (%v): it keeps the server's", path, err))
		}
	}
	// One step where the system allows it: DATABASE names the original or
	// the new database at every moment, so that even fbdiag killed here
	// (SIGKILL, the OOM killer) never leaves the name without a database.
	if err := exchange(tmp, path); err == nil {
		swapStep("exchanged")
		// tmp now holds the original.
		if err := os.Remove(tmp); err != nil {
			return fail(KindServer, fmt.Sprintf("replaced, but the original could not be deleted: %v (it is %s)", err, tmp))
		}
		swapStep("original deleted")
		return nil
	} else if !errors.Is(err, errors.ErrUnsupported) {
		return fail(KindServer, fmt.Sprintf("%v; %s; the restored database is %s", err, s.reopen(ctx, path), tmp))
	}
	// Without it: aside, then into place.
	old := sibling(path, "old")
	if err := os.Rename(path, old); err != nil {
		return fail(KindServer, fmt.Sprintf("%v; %s; the restored database is %s", err, s.reopen(ctx, path), tmp))
	}
	swapStep("renamed aside")
	if err := renameNoReplace(tmp, path); err != nil {
		if rerr := os.Rename(old, path); rerr != nil {
			return fail(KindServer, fmt.Sprintf("%v, and the original could not be put back (%v): it is %s, in full shutdown; the restored database is %s", err, rerr, old, tmp))
		}
		return fail(KindServer, fmt.Sprintf("%v; %s; the restored database is %s", err, s.reopen(ctx, path), tmp))
	}
	swapStep("renamed in two")
	if err := os.Remove(old); err != nil {
		return fail(KindServer, fmt.Sprintf("replaced, but the original could not be deleted: %v (it is %s)", err, old))
	}
	return nil
}

// swapStep is told each step of swap once it is done; a test checks the
// database's name between them.
var swapStep = func(step string) {}

// reopen brings the original back online after a swap that did not
// happen, and says so.
func (s Server) reopen(ctx context.Context, path string) string {
	if err := s.online(ctx, path); err != nil {
		return fmt.Sprintf("the original is in full shutdown and could not be brought online (%s): gfix -online%s", oneLine(err.Error()), gfixTarget(s.Addr, path))
	}
	return "the original is back online"
}
