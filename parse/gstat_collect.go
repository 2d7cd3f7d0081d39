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
	return EachGstatBlock(rd, name, wholeRuns(fn))
}

// wholeRuns are the receivers that gather each run's blocks into its
// report and pass it to fn.
func wholeRuns(fn func(*GstatReport) error) GstatBlocks {
	return GstatBlocks{
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
	}
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
	br := newBlockReader(NewGstatReader(rd, name), b)
	br.read()
	return br.end()
}

// blockReader is EachGstatBlock's state: the reader, the run being read
// and the table block whose indices are being gathered. A chunked read
// (GstatChunks) keeps it between the pieces of its input.
type blockReader struct {
	r        *GstatReader
	b        GstatBlocks
	cur      *GstatReport
	next     int // index of the next report to create
	owner    *GstatTable
	ownerRep *GstatReport
	pend     []*GstatIndex // the indices of owner, read so far
	ferr     error
	content  bool
	// spec, in a speculative read (SpeculateGstat), is where the tables
	// go; anything but table and index blocks makes it fail.
	spec *GstatSpec
}

func newBlockReader(r *GstatReader, b GstatBlocks) *blockReader {
	r.slab.pool = b.Pool
	return &blockReader{r: r, b: b}
}

func (br *blockReader) closeOwner() {
	if br.owner == nil {
		return
	}
	if len(br.pend) > 0 {
		br.owner.Indices = append(br.r.slab.indexList(len(br.pend)), br.pend...)
		br.pend = br.pend[:0]
	}
	if br.b.Table != nil && br.ferr == nil {
		br.ferr = br.b.Table(br.ownerRep, br.owner)
	}
	br.owner = nil
}

func (br *blockReader) get(i int) *GstatReport {
	for br.ferr == nil && (br.cur == nil || br.cur.Index < i) {
		br.closeOwner()
		if br.cur != nil && br.b.Report != nil {
			br.ferr = br.b.Report(br.cur)
		}
		br.cur = &GstatReport{Index: br.next, File: br.r.Name()}
		br.next++
	}
	return br.cur
}

// read handles the records of the input, up to its end or, in a chunked
// read, the end of the piece given.
func (br *blockReader) read() {
	r := br.r
	for br.ferr == nil && r.Next() {
		if br.spec != nil {
			if !br.speculate(r.Record()) {
				return
			}
			continue
		}
		switch rec := r.Record().(type) {
		case *GstatNotice:
			rep := br.get(rec.Report)
			rep.Notices = append(rep.Notices, rec.Notice)
		case *GstatHeader:
			br.get(rec.Report).Header = rec
			br.content = true
		case *GstatTable:
			rep := br.get(rec.Report)
			br.content = true
			if repeats(br.owner, rec) {
				continue
			}
			br.closeOwner()
			br.owner, br.ownerRep = rec, rep
		case *GstatIndex:
			rep := br.get(rec.Report)
			br.content = true
			if owns(br.owner, rec) {
				br.pend = append(br.pend, rec)
			} else if br.b.Unattached != nil {
				br.ferr = br.b.Unattached(rep, rec)
			}
		case *GstatFinding:
			rep := br.get(rec.Report)
			br.content = true
			rep.Findings = append(rep.Findings, rec)
		case *GstatSection:
			rep := br.get(rec.Report)
			br.content = true
			rep.Sections = append(rep.Sections, rec)
		case *GstatCompletion:
			br.get(rec.Report).Completion = rec
			br.content = true
		}
	}
}

// repeats reports whether table block t is owner's name line printed
// again before its indices (the manual's excerpts print it so): the
// indices belong to the block above.
func repeats(owner, t *GstatTable) bool {
	return owner != nil && owner.Name == t.Name && owner.ID == t.ID && owner.Schema == t.Schema &&
		t.PrimaryPointerPage == nil && t.Fill == nil
}

// owns reports whether index block ix belongs to table block owner.
func owns(owner *GstatTable, ix *GstatIndex) bool {
	return owner != nil && ix.TableID != nil && owner.Name == ix.Table && owner.ID == *ix.TableID
}

// end ends the input: the last table block and run go to their
// receivers.
func (br *blockReader) end() error {
	if br.ferr != nil {
		return br.ferr
	}
	br.closeOwner()
	if br.ferr != nil {
		return br.ferr
	}
	if br.cur != nil && br.b.Report != nil {
		if err := br.b.Report(br.cur); err != nil {
			return err
		}
	}
	if err := br.r.Err(); err != nil {
		return err
	}
	if !br.content {
		return &SyntaxError{File: br.r.Name(), Msg: ErrNoGstat.Error(), Err: ErrNoGstat}
	}
	return nil
}
