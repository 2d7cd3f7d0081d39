package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Backup runs gbak -b -v -st tdrw (and opt's switches) on the server,
// database to backupFile (both server paths), and streams the verbose log
// to w, one gbak: line at a time; progress, when not nil, is called for
// each line.
//
// An existing backupFile is never lost. Where fbdiag can rename files in
// its folder (the server on this machine, the folder writable here), the
// server writes the backup under a temporary name beside it
// (.NAME.tmp-RANDOM), which is renamed to backupFile only after gbak
// reported success; an existing backupFile is refused unless opt.Force, and
// even then replaced only by the complete new backup. A failed or
// interrupted backup leaves neither the temporary file nor anything under
// backupFile. Elsewhere the Services API can neither look at files nor
// rename them: fbdiag refuses unless opt.Force, which lets gbak write
// backupFile directly as gbak itself does.
//
// On ctx's end (Ctrl-C) the backup is cancelled on the server by deleting
// its attachment (see cancel.go).
func (s Server) Backup(ctx context.Context, database, backupFile string, opt BackupOptions, w io.Writer, progress func(Progress)) (*GbakRun, error) {
	run := &GbakRun{Server: s.Addr, Action: "backup", Database: database, BackupFile: backupFile, Switches: opt.Switches()}
	const op = "back up"
	target := s.locate(backupFile)
	// BACKUP_FILE a symlink (latest.fbk to a file on another disk): gbak
	// writes through it, so the new backup goes beside the file it names
	// and takes that file's place. Renamed onto the link itself, it
	// replaced the link and left the file it named as it was, stale.
	if target.local {
		if r, err := filepath.EvalSymlinks(backupFile); err == nil && r != filepath.Clean(backupFile) {
			target = s.locate(r)
		}
	}
	fail := func(kind Kind, detail string) error {
		return &Error{Op: op, Object: database, Server: s.Addr, Kind: kind, Detail: detail}
	}
	// gbak refuses it too ("multiple sources or destinations specified");
	// fbdiag's rename would put the backup in the database's place.
	if s.sameServerFile(database, backupFile) {
		return run, fail(KindSameFile, sameAsDatabase(backupFile))
	}
	if target.noFolder != "" && !opt.Force {
		// The server runs here: --force would only have gbak fail
		// ("cannot open backup file"). (A server in a container, its
		// files not this machine's, writes there with --force.)
		do := "make it first, writable by the server's user (firebird on Debian)"
		if !strings.HasPrefix(target.noFolder, "there is") {
			do = "name a file in a folder"
		}
		return run, fail(KindNotLocal, fmt.Sprintf("%s: %s; %s; nothing done (--force has gbak write it directly, for a server whose files are not this machine's: a container)", backupFile, target.noFolder, do))
	}
	if !target.local && !opt.Force {
		return run, fail(KindNotLocal, fmt.Sprintf("cannot tell whether %s exists: %s, and the Services API can neither look at nor rename files (--force lets gbak write it directly, replacing any file of that name)", backupFile, target.why))
	}
	if fi, err := os.Stat(target.path); target.local && err == nil && fi.IsDir() {
		// (With --force the whole backup ran, then its rename failed.)
		return run, fail(KindFileExists, backupFile+" is a folder; nothing done (name a file in it)")
	}
	if target.local && opt.Force && IsDatabaseFile(target.path) {
		// keepBackup refuses it too, but only once the whole backup has
		// run (hours on a large database) and left it under its
		// temporary name.
		return run, fail(KindFileExists, backupFile+" is a Firebird database (its first page is a database header), not a backup: not replaced, with or without --force; nothing done (name another file)")
	}
	if target.local && exists(backupFile) && !opt.Force {
		return run, fail(KindFileExists, backupFile+" exists; not replaced (--force replaces it once the new backup is complete)")
	}
	sm, err := s.gbakService(ctx, opt.Parallel, fail)
	if err != nil {
		return run, err
	}
	defer sm.Close()
	// An attachment of our own, to tell the backup's attachment apart if
	// it has to be cancelled; it also says plainly why a database cannot
	// be opened. gbak -ig attaches in a mode that tolerates no other
	// attachment ("Incompatible mode of attachment to damaged database",
	// Firebird 3.0.11), so then there is none.
	var watch *serviceWatch
	var file string // the database's file as the server names it (an alias resolved), "" when unknown
	if opt.IgnoreChecksums {
		// No attachment may stay open, but one before gbak starts can name
		// the file; a damaged database may refuse it. Then the only check
		// left is keepBackup's, on this machine: where gbak writes
		// BACKUP_FILE itself (--force on a server elsewhere) an alias is
		// refused, since it may be that file.
		var rerr error
		file, rerr = s.databaseFile(ctx, database)
		if rerr != nil && !target.local && !serverAbs(database) {
			return run, fail(KindNotLocal, fmt.Sprintf("cannot tell which file %s names (an alias; with -ig the server's answer to an attachment was: %s), and gbak would write %s directly: give the database's path", database, oneLine(rerr.Error()), backupFile))
		}
	} else {
		if watch, err = s.watchServices(ctx, database); err != nil {
			return run, s.fail(op, database, err)
		}
		defer watch.close()
		file = watch.file
	}
	if file != "" && s.sameServerFile(file, backupFile) {
		return run, fail(KindSameFile, sameAsDatabase(backupFile)+" ("+file+")")
	}
	if out := s.ownOutput(opt.Outputs, file); out != "" {
		return run, fail(KindSameFile, ownOutputIs(out, file))
	}

	dest := backupFile
	if target.local {
		s.noteLeftovers(target.path)
		dest = sibling(target.path, "tmp")
		if old, err := os.Stat(target.path); err == nil {
			// The backup that --force replaces may be kept from other
			// users (0600): its successor, all the data too, is given
			// its mode as soon as the server made it, not only once
			// complete (keepBackup checks again).
			run.onCreated = func() {
				sameOwner(dest, old)
				os.Chmod(dest, old.Mode().Perm())
			}
		}
	}
	run.named(dest, backupFile)
	err, logErr := s.gbak(ctx, sm, run, opt.spb(database, dest), w, progress)
	if err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), CleanupTimeout)
		defer cancel()
		ce := s.gbakError(op, database, run, err)
		if ctx.Err() != nil {
			ce.Kind, ce.Detail = KindInterrupted, ""
		} else if target.noFolder != "" && strings.HasPrefix(ce.Detail, "cannot open backup file "+dest) {
			// --force past a folder missing here: gbak gives no reason.
			ce.Detail = "the server cannot create " + backupFile + ": " + target.noFolder + " (gbak: " + ce.Detail + ")"
		} else if target.local && strings.Contains(ce.Detail, "cannot open backup file "+dest) {
			// gbak gives no reason. The folder is there and fbdiag may
			// write it; the server, which creates the file, runs as a
			// user of its own (firebird on Debian).
			ce.Detail = "the server cannot create " + target.path + " in " + filepath.Dir(target.path) +
				": its user (firebird on Debian) must be allowed to write that folder (gbak: " + ce.Detail + ")"
		}
		ce.Detail = tempNamed(ce.Detail, dest, backupFile)
		ce.Outcome = s.stopBackup(cctx, watch, target, dest, ce.Kind, run.created)
		return run, ce
	}
	if target.local {
		if err := s.keepBackup(run, dest, target.path, opt.Force); err != nil {
			return run, err
		}
	} else if !serverAbs(backupFile) && s.Warn != nil {
		// --force past "cannot tell whether x.fbk exists": the server
		// wrote it in its own working folder ("/" under systemd, where
		// it was started otherwise), not in the shell's, and the output
		// names it as given. (An alias is no file name: not warned of.)
		s.Warn(backupFile + " is a relative path: the server wrote it in its own working folder, not in yours (give an absolute path to choose where)")
	}
	if logErr != nil {
		return run, &Error{Op: "write the log of the backup of", Object: database, Server: s.Addr, Kind: KindServer,
			Detail: logErr.Error(), Outcome: "the backup itself is complete: " + backupFile}
	}
	return run, nil
}

// sameAsDatabase refuses a backup file that is the database itself.
func sameAsDatabase(backupFile string) string {
	return "the backup file " + backupFile + " is the database itself; nothing done (gbak: multiple sources or destinations specified)"
}

// ownOutputIs refuses a log that is the database's file.
func ownOutputIs(out, file string) string {
	return out + " is the database's file " + file + "; nothing done (name the log another file)"
}

// stopBackup answers a failed or interrupted backup: the backup is
// cancelled on the server if it still runs there (after Ctrl-C, or when
// only fbdiag's connection was lost), what it wrote is removed, and the
// answer says what is left.
func (s Server) stopBackup(ctx context.Context, watch *serviceWatch, target serverFile, dest string, kind Kind, created bool) string {
	var id int64
	var err error
	if kind == KindInterrupted || kind == KindLost {
		id, err = watch.cancel(ctx)
	}
	var left string
	if target.local {
		// gbak deletes its file when it fails; if it still runs it
		// goes on into an unlinked file, whose space is freed when it ends.
		left = removeTemporary(dest, target.path)
	}
	switch {
	case id != 0 && target.local:
		return fmt.Sprintf("the backup was cancelled on the server (its attachment %d deleted); %s", id, left)
	case id != 0:
		return fmt.Sprintf("the backup was cancelled on the server (its attachment %d deleted), which deletes its partial file %s", id, dest)
	case kind != KindInterrupted && target.local:
		return left
	case kind != KindInterrupted && !created:
		// (BACKUP_FILE may be the user's last good backup.)
		return "gbak stopped before creating " + dest + ": nothing was created or changed"
	case kind != KindInterrupted:
		return "the server may have left a partial backup at " + dest + ": delete it"
	case target.local:
		return "the server could not be asked to stop (" + cancelWhy(err) + ") and goes on until the backup ends; " + left
	default:
		return "the server could not be asked to stop (" + cancelWhy(err) + ") and goes on writing " + dest + " until the backup ends"
	}
}

func cancelWhy(err error) string {
	if err != nil {
		return oneLine(err.Error())
	}
	return "its attachment could not be told apart from others"
}

// removeTemporary deletes what a failed backup left under its temporary
// name and says what the user has.
func removeTemporary(tmp, final string) string {
	if err := os.Remove(tmp); err != nil && !os.IsNotExist(err) {
		return fmt.Sprintf("partial backup left at %s (%v): delete it; %s untouched", tmp, err, final)
	}
	return "nothing left; " + final + " untouched"
}

// keepBackup gives the complete backup its name.
func (s Server) keepBackup(run *GbakRun, tmp, final string, force bool) error {
	fail := func(detail string) error {
		return &Error{Op: "name the backup", Object: final, Server: s.Addr, Kind: KindServer, Detail: detail}
	}
	if !exists(tmp) {
		return fail("the server wrote it as " + tmp + ", which is not on this machine's filesystem: rename it on the server")
	}
	replaced := exists(final)
	if replaced && IsDatabaseFile(final) {
		return fail(final + " is a Firebird database (its first page is a database header), not a backup: not replaced; the new backup is " + tmp)
	}
	if fi, err := os.Stat(final); err == nil && replaced {
		// gbak writing over a backup truncates it: the file keeps its
		// mode, owner and group. The new file has the server's (0644
		// firebird:firebird on Debian): a backup kept 0600, all the
		// database's data, became readable by every user.
		sameOwner(tmp, fi) // (as the server's user or root; else the mode alone)
		if err := os.Chmod(tmp, fi.Mode().Perm()); err != nil {
			return fail(fmt.Sprintf("cannot give the new backup the mode of %s (%v): not replaced; the new backup is %s", final, err, tmp))
		}
	}
	var err error
	if force {
		err = os.Rename(tmp, final)
	} else {
		err = renameNoReplace(tmp, final)
	}
	if errors.Is(err, errTargetExists) {
		return fail(final + " appeared meanwhile and was not replaced; the new backup is " + tmp)
	}
	if err != nil {
		return fail(fmt.Sprintf("%v; the new backup is %s", err, tmp))
	}
	run.Replaced = replaced
	return nil
}

// gbakError builds the error of a failed gbak run: the step gbak had
// reached goes with it, since the log is kept only as a partial one.
func (s Server) gbakError(op, object string, run *GbakRun, err error) *Error {
	var ce *Error
	if !errors.As(s.fail(op, object, err), &ce) {
		ce = &Error{Kind: KindServer, Detail: oneLine(err.Error())}
	}
	// The service had started: whatever the error, it is this step's
	// (fail names the connection for a timeout, which here is not one).
	ce.Op, ce.Object, ce.Server = op, object, s.Addr
	ce.After = run.LastStep
	if run.lostAfterStep {
		// (A restore under go test -race said "committing metadata",
		// twelve lines before the primary key's index it failed at.)
		ce.After += " (what gbak printed after it was lost with its error)"
	}
	// gbak's closing words come through the service or not, as the
	// server ends it (a CI run read the same failure without them): they
	// say nothing the error does not, and the message is the same each
	// time without them.
	ce.Detail = strings.ReplaceAll(ce.Detail, "; Exiting before completion due to errors", "")
	if run.tmpName != "" && strings.Contains(ce.Detail, "no permission for CREATE access to DATABASE "+run.tmpName) {
		// The database the user named, not the temporary one it was
		// to be restored under.
		ce.Detail = strings.ReplaceAll(ce.Detail, run.tmpName, run.finalName)
	}
	return ce
}

// databaseFile is the file database names, as the server says
// (MON$DATABASE_NAME): an alias resolved. The attachment is closed again.
func (s Server) databaseFile(ctx context.Context, database string) (string, error) {
	db, err := s.open(ctx, database)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var file string
	if err := db.QueryRowContext(ctx, "SELECT MON$DATABASE_NAME FROM MON$DATABASE").Scan(&file); err != nil {
		return "", err
	}
	return strings.TrimSpace(file), nil
}
