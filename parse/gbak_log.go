package parse

import "io"

// GbakLog is a whole gbak log read into memory: convenient for tests and
// for the report, which needs several passes. Streaming callers use
// GbakReader directly.
type GbakLog struct {
	Name string
	// Op is "backup" or "restore" (from the first line whose wording
	// tells), "" when no line did.
	Op string
	// Columns are the statistics columns; ColumnsGuessed is set when the
	// header line was missing and they were inferred.
	Columns        GbakColumns
	ColumnsGuessed bool
	Lines          []GbakLine
	Notices        []Notice
	// Restored is what fbdiag restore's lines after gbak's last say of
	// a failed restore (GbakRestored).
	Restored GbakRestored
}

// ReadGbak reads a whole gbak log. A file without a single gbak line is an
// error (it is not a gbak log); everything else is read, with Notices for
// what was skipped, guessed or repaired.
func ReadGbak(r io.Reader, name string) (*GbakLog, error) {
	rd := NewGbakReader(r, name)
	log := &GbakLog{Name: rd.Name()}
	for rd.Next() {
		log.Lines = append(log.Lines, *rd.Line())
	}
	log.Op, log.Columns, log.ColumnsGuessed = rd.Op(), rd.Columns(), rd.ColumnsGuessed()
	log.Notices, log.Restored = rd.Notices(), rd.Restored()
	if err := rd.Err(); err != nil {
		return log, err
	}
	if len(log.Lines) == 0 {
		return log, rd.NoGbakError()
	}
	return log, nil
}
