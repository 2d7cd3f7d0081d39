package analyze

import "github.com/fbdiag/fbdiag/parse"

// reportsDone says whether gbak prints l's message after the work it
// names, not before as for every other step. Firebird's source, 3.0.11
// and master alike:
//
//   - restore, msg 74 "created database X, page_size N bytes":
//     create_database() (restore.epp) creates the database
//     (isc_create_database, IProvider::createDatabase in master) and
//     then calls BURP_verbose(74);
//   - restore, msg 129 "started transaction": RESTORE_restore starts the
//     transactions (SET TRANSACTION, detectRuntimeODS) and then calls
//     BURP_verbose(129);
//   - backup, msg 176 "closing file, committing, and finishing. N bytes
//     written": BACKUP_backup (backup.epp) calls MVOL_fini_write(),
//     which writes the last block, flushes (flush_platf: fdatasync,
//     FlushFileBuffers) and closes the .fbk, then BURP_verbose(176); it
//     commits after the line.
//
// The time and page I/O on such a line are its own step's: the database
// creation, not "backup version is 10"; the flush of the backup file,
// not "writing names mapping".
func reportsDone(l *parse.GbakLine) bool {
	switch l.Kind {
	case parse.GbakCreateDatabase:
		return true
	case parse.GbakTransaction:
		return l.Op == parse.GbakRestore
	case parse.GbakFinish:
		return l.Op == parse.GbakBackup
	}
	return false
}

// openDone opens the step of a line that reports work already done
// (reportsDone): the step before it ends at the line before (an empty
// interval, so no time and no I/O, unless lines are missing between),
// and this one starts there, its own line's figures its cost.
func (b *GbakTimelineBuilder) openDone(l *parse.GbakLine) {
	const td = parse.ColTime | parse.ColDelta
	missing := l.Has == 0 || l.Gap ||
		(l.Has&td == td && b.hasPrevT && l.Time-b.prevT > l.Delta+gapTolerance)
	b.emptyDone = !missing
	b.close(true)
	b.emptyDone = false
	prevT, hasPrevT := b.prevT, b.hasPrevT
	b.open(l)
	switch {
	case l.Has&parse.ColTime == 0:
	case hasPrevT:
		b.cur.Start = b.mem.f(prevT)
	case l.Has&parse.ColDelta != 0:
		b.cur.Start = b.mem.f(round3(l.Time - l.Delta))
	default:
		b.cur.Start = nil // where its work started is not known
	}
	b.accumulate(l)
}
