package analyze

import "github.com/fbdiag/fbdiag/parse"

// reportsDone says whether gbak prints l's message after the work it
// names, not before as for every other step. Firebird's source, 3.0.11
// and master alike:
//
//   - backup, msg 166 "readied database X for backup": open_files()
//     (burp.cpp) attaches the database (attachDatabase) and then calls
//     BURP_verbose(166); the line's page reads are the attachment's
//     (gbak's counters start at 0 and are the attachment's), which no
//     step had;
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
// not "writing names mapping"; the attachment, not "creating file".
func reportsDone(l *parse.GbakLine) bool {
	switch l.Kind {
	case parse.GbakCreateDatabase:
		return true
	case parse.GbakOpenDatabase:
		return l.Op == parse.GbakBackup
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
	b.close()
	b.emptyDone = false
	prevT, hasPrevT := b.prevT, b.hasPrevT
	b.open(l)
	b.doneStep = true
	// Lines missing before this one (an excerpt's "# . . ."): the line
	// before is not the one read last, and with the delta column the
	// work began at time − delta (public 01: the backup's closing line
	// at 0.847, delta 0.109, started 0.738, not at 0.024, the last line
	// kept). Its own line is whole, so it is still the step's cost.
	whole := missing && l.Has&td == td
	switch {
	case l.Has&parse.ColTime == 0:
	case whole:
		prevT, hasPrevT = round3(l.Time-l.Delta), false
		b.cur.Start = b.mem.f(prevT)
		b.prevT, b.hasPrevT = prevT, true
	case missing:
		b.cur.Start = nil // where its work started is not known
	case hasPrevT:
		b.cur.Start = b.mem.f(prevT)
	case l.Has&parse.ColDelta != 0:
		b.cur.Start = b.mem.f(round3(l.Time - l.Delta))
	default:
		b.cur.Start = nil // where its work started is not known
	}
	b.accumulate(l)
	if whole {
		b.broken = false // the lines missing are before it
	}
}

// closeTotal ends the pending step at the total line. The total line's
// reads and writes are the run's counters, not a delta (print_stats
// prints cur_stats for msg 369, the difference from the line before
// otherwise): what the step read and wrote after the last line before
// it (the backup's commit after "closing file, committing, and
// finishing") is the total minus every delta before it, when the log
// holds every delta (wholeLog) and they do not exceed it. Otherwise the
// step of a line printed after its work (reportsDone) keeps its own
// line's figures, its work, and leaves out what came after the line;
// any other step's are unknown, as before.
func (b *GbakTimelineBuilder) closeTotal(l *parse.GbakLine) {
	withR, withW := b.doneStep, b.doneStep
	if b.pending && b.wholeLog() {
		if l.Has&parse.ColReads != 0 && l.Reads >= b.sumAllR {
			b.sumR += l.Reads - b.sumAllR
			withR = true
		}
		if l.Has&parse.ColWrites != 0 && l.Writes >= b.sumAllW {
			b.sumW += l.Writes - b.sumAllW
			withW = true
		}
	}
	b.closeIO(withR, withW)
}

// wholeLog says whether the log so far starts at gbak's first line and
// misses nothing, so that its deltas add up to the run's I/O (a log that
// ends after a wrapped line, #8027, before its jump: the bad value is in
// the sums).
func (b *GbakTimelineBuilder) wholeLog() bool {
	return !b.anyGap && b.steps > 0 && b.first == PhaseOpen && !b.wrapOpen
}
