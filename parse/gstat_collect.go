package parse

import "io"

// ReadGstat reads a whole gstat output and collects its records into one
// GstatReport per gstat run found in the file (files often hold several
// runs appended). Indices are attached to their tables. The error is an
// I/O error, or a SyntaxError when the input holds no gstat output at all;
// the reports read so far are returned with it.
func ReadGstat(rd io.Reader, name string) ([]*GstatReport, error) {
	var reps []*GstatReport
	err := EachGstat(rd, name, func(rep *GstatReport) error {
		reps = append(reps, rep)
		return nil
	})
	return reps, err
}

// EachGstat is ReadGstat one run at a time: fn gets each GstatReport as
// soon as the next run starts (or the input ends), so that a file of
// thousands of appended runs is analysed in the memory of one. An error
// from fn stops the read and is returned.
func EachGstat(rd io.Reader, name string, fn func(*GstatReport) error) error {
	return EachGstatBlock(rd, name, GstatBlocks{
		Table: func(rep *GstatReport, t *GstatTable) error {
			rep.Tables = append(rep.Tables, t)
			rep.Indices = append(rep.Indices, t.Indices...)
			return nil
		},
		Unattached: func(rep *GstatReport, ix *GstatIndex) error {
			rep.UnattachedIndices = append(rep.UnattachedIndices, ix)
			rep.Indices = append(rep.Indices, ix)
			return nil
		},
		Report: fn,
	})
}

// GstatBlocks receives the blocks of a gstat output as EachGstatBlock
// reads them. Every func may be nil.
type GstatBlocks struct {
	// Table gets each table block with its Indices, once they are all
	// read (when the next table or run starts, or the input ends). rep is
	// the run it belongs to, with its Header when the header came first
	// (gstat prints it first), but no Tables: the receiver keeps what it
	// needs.
	Table func(rep *GstatReport, t *GstatTable) error
	// Unattached gets each index block that follows no table block.
	Unattached func(rep *GstatReport, ix *GstatIndex) error
	// Report gets each run when it ends, with its header, findings,
	// sections, completion and notices, and whatever Table and Unattached
	// put in it.
	Report func(rep *GstatReport) error
	// Pool, when set, holds table blocks the receiver gave back for the
	// reader to fill again (GstatPool).
	Pool *GstatPool
}

// EachGstatBlock reads a gstat output block by block: memory holds one
// table block with its indices, whatever the size of the input, unless
// the receiver keeps them. Errors are those of EachGstat.
func EachGstatBlock(rd io.Reader, name string, b GstatBlocks) error {
	r := NewGstatReader(rd, name)
	r.slab.pool = b.Pool
	var cur *GstatReport
	next := 0 // index of the next report to create
	var owner *GstatTable
	var ownerRep *GstatReport
	var ferr error
	var pend []*GstatIndex // the indices of owner, read so far
	closeOwner := func() {
		if owner == nil {
			return
		}
		if len(pend) > 0 {
			owner.Indices = append(r.slab.indexList(len(pend)), pend...)
			pend = pend[:0]
		}
		if b.Table != nil && ferr == nil {
			ferr = b.Table(ownerRep, owner)
		}
		owner = nil
	}
	get := func(i int) *GstatReport {
		for ferr == nil && (cur == nil || cur.Index < i) {
			closeOwner()
			if cur != nil && b.Report != nil {
				ferr = b.Report(cur)
			}
			cur = &GstatReport{Index: next, File: r.Name()}
			next++
		}
		return cur
	}
	content := false
	for ferr == nil && r.Next() {
		switch rec := r.Record().(type) {
		case *GstatNotice:
			rep := get(rec.Report)
			rep.Notices = append(rep.Notices, rec.Notice)
		case *GstatHeader:
			get(rec.Report).Header = rec
			content = true
		case *GstatTable:
			rep := get(rec.Report)
			content = true
			if o := owner; o != nil && o.Name == rec.Name && o.ID == rec.ID && o.Schema == rec.Schema &&
				rec.PrimaryPointerPage == nil && rec.Fill == nil {
				// The name line repeated before the indices (the manual's
				// excerpts print it so): the indices belong to the block above.
				continue
			}
			closeOwner()
			owner, ownerRep = rec, rep
		case *GstatIndex:
			rep := get(rec.Report)
			content = true
			if owner != nil && rec.TableID != nil && owner.Name == rec.Table && owner.ID == *rec.TableID {
				pend = append(pend, rec)
			} else if b.Unattached != nil {
				ferr = b.Unattached(rep, rec)
			}
		case *GstatFinding:
			rep := get(rec.Report)
			content = true
			rep.Findings = append(rep.Findings, rec)
		case *GstatSection:
			rep := get(rec.Report)
			content = true
			rep.Sections = append(rep.Sections, rec)
		case *GstatCompletion:
			get(rec.Report).Completion = rec
			content = true
		}
	}
	if ferr != nil {
		return ferr
	}
	closeOwner()
	if ferr != nil {
		return ferr
	}
	if cur != nil && b.Report != nil {
		if err := b.Report(cur); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if !content {
		return &SyntaxError{File: r.Name(), Msg: ErrNoGstat.Error(), Err: ErrNoGstat}
	}
	return nil
}
