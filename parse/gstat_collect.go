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
	r := NewGstatReader(rd, name)
	var cur *GstatReport
	next := 0 // index of the next report to create
	var owner *GstatTable
	var ferr error
	// The indices of owner gather in pend and move to owner.Indices in
	// one exact-size piece of a shared block when the next table or report
	// starts (closeOwner runs once per owner).
	var pend, block []*GstatIndex
	closeOwner := func() {
		if owner == nil || len(pend) == 0 {
			return
		}
		if len(pend) > cap(block)-len(block) {
			block = make([]*GstatIndex, 0, max(256, len(pend)))
		}
		n := len(block)
		block = append(block, pend...)
		owner.Indices = block[n:len(block):len(block)] // an append copies
		pend = pend[:0]
	}
	get := func(i int) *GstatReport {
		for ferr == nil && (cur == nil || cur.Index < i) {
			closeOwner()
			if cur != nil {
				ferr = fn(cur)
			}
			cur = &GstatReport{Index: next, File: r.Name()}
			next++
			owner = nil
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
			owner = rec
			rep.Tables = append(rep.Tables, rec)
		case *GstatIndex:
			rep := get(rec.Report)
			content = true
			rep.Indices = append(rep.Indices, rec)
			if owner != nil && rec.TableID != nil && owner.Name == rec.Table && owner.ID == *rec.TableID {
				pend = append(pend, rec)
			} else {
				rep.UnattachedIndices = append(rep.UnattachedIndices, rec)
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
	if cur != nil {
		if err := fn(cur); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if !content {
		return &SyntaxError{File: r.Name(), Msg: "no gstat output found"}
	}
	return nil
}
