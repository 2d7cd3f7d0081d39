package parse_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// FuzzGstat feeds the reader the fb30 samples, the derived testdata/gstat
// files and (when present) the public corpus, mutated: it must never
// panic, and every notice and error must carry a line number.
func FuzzGstat(f *testing.F) {
	for _, p := range testutil.GstatOutputs(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// The head of each version's output: whole files (up to 200 KB)
		// kept the fuzzer minimising, 68 inputs in a minute.
		f.Add(testutil.Head(b, 4096))
	}
	// Excerpts as they are, with lone CRs, huge numbers and long names.
	for _, name := range []string{testutil.GstatSeed, testutil.GstatLaterSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := parse.NewGstatReader(bytes.NewReader(data), "fuzz.txt")
		n := 0
		for r.Next() {
			rec := r.Record()
			if rec.Pos().Line <= 0 {
				t.Fatalf("record %T without a line: %+v", rec, rec)
			}
			if nt, ok := rec.(*parse.GstatNotice); ok && (nt.Line <= 0 || nt.File != "fuzz.txt") {
				t.Fatalf("notice without file:line: %v", nt.Notice)
			}
			n++
		}
		if err := r.Err(); err != nil {
			var se *parse.SyntaxError
			if !errors.As(err, &se) || se.Line <= 0 {
				t.Fatalf("error without a line: %v", err)
			}
		}
		reps, err := parse.ReadGstat(bytes.NewReader(data), "fuzz.txt")
		for _, rep := range reps {
			for _, nt := range rep.Notices {
				if nt.Line <= 0 {
					t.Fatalf("collected notice without a line: %v", nt)
				}
			}
		}
		var se *parse.SyntaxError
		if err != nil && errors.As(err, &se) && se.Line <= 0 && !errors.Is(err, parse.ErrNoGstat) {
			t.Fatalf("error without a line: %v", err)
		}
	})
}
