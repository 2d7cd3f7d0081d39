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
	get := func(i int) *GstatReport {
		for ferr == nil && (cur == nil || cur.Index < i) {
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
			owner = rec
			rep.Tables = append(rep.Tables, rec)
		case *GstatIndex:
			rep := get(rec.Report)
			content = true
			rep.Indices = append(rep.Indices, rec)
			if owner != nil && rec.TableID != nil && owner.Name == rec.Table && owner.ID == *rec.TableID {
				owner.Indices = append(owner.Indices, rec)
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
