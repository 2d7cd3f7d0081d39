package parse

import "io"

// ReadGstat reads a whole gstat output and collects its records into one
// GstatReport per gstat run found in the file (files often hold several
// runs appended). Indices are attached to their tables. The error is an
// I/O error, or a SyntaxError when the input holds no gstat output at all;
// the reports read so far are returned with it.
func ReadGstat(rd io.Reader, name string) ([]*GstatReport, error) {
	r := NewGstatReader(rd, name)
	var reps []*GstatReport
	var owner *GstatTable
	get := func(i int) *GstatReport {
		for len(reps) <= i {
			reps = append(reps, &GstatReport{Index: len(reps), File: r.Name()})
			owner = nil
		}
		return reps[i]
	}
	content := false
	for r.Next() {
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
	if err := r.Err(); err != nil {
		return reps, err
	}
	if !content {
		return reps, &SyntaxError{File: r.Name(), Msg: "no gstat output found"}
	}
	return reps, nil
}
