package report

import (
	"io"
	"os"
)

// spoolPipe copies a pipe's gstat input (read once) to a temporary file
// that the report then reads as a file, as streams, twice if need be: a
// gstat output piped in (`fbstat -a -r db | fbdiag report -`) is not held
// in memory. The file is removed at once where the system allows it (it
// lives while open: nothing is left behind if fbdiag is killed), else by
// done. A read that fails part way leaves what was read, and its error;
// where no temporary file can be made, the pipe is returned as it is (and
// held whole, as before).
func spoolPipe(in Input) (spooled Input, done func(), err error) {
	f, err := os.CreateTemp("", "fbdiag-stdin-*")
	if err != nil {
		return in, func() {}, nil
	}
	removed := os.Remove(f.Name()) == nil
	done = func() {
		f.Close()
		if !removed {
			os.Remove(f.Name())
		}
	}
	rc, err := in.Open()
	if err != nil {
		done()
		return in, func() {}, err
	}
	n, err := io.Copy(f, rc)
	rc.Close()
	spooled = in
	spooled.closer = nil
	spooled.Open = func() (io.ReadCloser, error) { return io.NopCloser(io.NewSectionReader(f, 0, n)), nil }
	return spooled, done, err
}
