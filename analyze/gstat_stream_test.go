package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// Streamed, every gstat file of the corpus gives the analysis GstatWith
// gives: the same tables in the same order, the same totals, warnings,
// findings and notices (compared as their JSON). On two cores the
// stream reads plain text on lanes: with pieces of 300 bytes and of
// 2 KiB the corpus's files are cut, their pieces read on their own and
// taken, or read in order where they cannot be (a header, a notice, a
// table cut from its indices). And so without the lanes, as non-UTF-8
// text and one core are read.
func TestStreamGstatAgrees(t *testing.T) {
	th := NewThresholds()
	defer func(p int) { lanePiece, noLanes = p, false }(lanePiece)
	for _, piece := range []int{lanePiece, 2 << 10, 300, 0} {
		// (0: without the lanes, the parser's goroutine and the workers)
		lanePiece, noLanes = max(piece, 300), piece == 0
		n := 0
		for _, path := range corpusGstat(t) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(path)
			want, rerr := wholeRuns(data, name, th)
			got, serr := streamedRuns(data, name, th, nil)
			if (rerr == nil) != (serr == nil) {
				t.Errorf("%s, pieces of %d: read %v, streamed %v", name, piece, rerr, serr)
				continue
			}
			w, _ := json.Marshal(want)
			g, _ := json.Marshal(got)
			if !bytes.Equal(w, g) {
				i := firstDiff(w, g)
				t.Errorf("%s, pieces of %d: streamed analysis differs at byte %d:\n…%.600s\nwant\n…%.600s", name, piece, i, g[max(i-200, 0):], w[max(i-200, 0):])
			}
			n += len(got)
		}
		if n < 60 {
			t.Errorf("pieces of %d: %d runs compared", piece, n)
		}
	}
}

// On a big run the parser fills the table blocks of batches the caller
// is done with again (parse.GstatPool), and the workers their IndexStats:
// the tables kept from Table (their Indices copied, as a receiver that
// keeps them must), whose figures point to the parser's values, still
// read as those of the whole analysis once the run is over.
func TestStreamGstatAgreesBig(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	big, want := bigSample(t)
	arrays := map[*IndexStats]bool{} // the Indices' backing arrays
	runs, err := streamedRuns(big, "big", NewThresholds(), func(ts *TableStats) {
		if len(ts.Indices) > 0 {
			arrays[&ts.Indices[0]] = true
		}
	})
	if err != nil || len(runs) != 1 {
		t.Fatal(len(runs), err)
	}
	got := runs[0]
	if len(got.Tables) < 3000 {
		t.Fatalf("%d tables", len(got.Tables))
	}
	// The workers filled a few hundred slices again, not one per table.
	if len(arrays) > len(got.Tables)/2 {
		t.Errorf("%d slices of indices for %d tables", len(arrays), len(got.Tables))
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if !bytes.Equal(w, g) {
		t.Errorf("streamed analysis differs at byte %d", firstDiff(w, g))
	}
}

// A table without indices has an empty list of them, not none, in the
// whole analysis and in a stream ("indices": [] in JSON): gstat -d
// prints no index.
func TestTableWithoutIndices(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-d.txt")
	reps, err := parse.ReadGstat(bytes.NewReader(data), "d.txt")
	if err != nil || len(reps) != 1 {
		t.Fatal(len(reps), err)
	}
	check := func(how string, tables []TableStats) {
		t.Helper()
		if len(tables) != 6 {
			t.Fatalf("%s: %d tables", how, len(tables))
		}
		for _, ts := range tables {
			if ts.Indices == nil || len(ts.Indices) != 0 {
				t.Errorf("%s: %s has indices %#v", how, ts.Name, ts.Indices)
			}
		}
	}
	check("whole", GstatWith(reps[0], NewThresholds(), GstatOptions{}).Tables)
	var streamed []TableStats
	err = StreamGstat(bytes.NewReader(data), "d.txt", NewThresholds(), GstatOptions{}, GstatStream{
		Table: func(_ *GstatAnalysis, ts *TableStats) error {
			streamed = append(streamed, *ts)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	check("streamed", streamed)
}

// wholeRuns analyses every run of data whole (GstatWith); the error is
// the reader's.
func wholeRuns(data []byte, name string, th Thresholds) ([]*GstatAnalysis, error) {
	reps, err := parse.ReadGstat(bytes.NewReader(data), name)
	var runs []*GstatAnalysis
	for _, rep := range reps {
		runs = append(runs, GstatWith(rep, th, GstatOptions{}))
	}
	return runs, err
}

// streamedRuns analyses every run of data with StreamGstat, each with
// the tables Table gave it (copies a receiver can keep); onTable, when
// set, sees each table as it comes.
func streamedRuns(data []byte, name string, th Thresholds, onTable func(*TableStats)) ([]*GstatAnalysis, error) {
	var runs []*GstatAnalysis
	var tables []TableStats
	err := StreamGstat(bytes.NewReader(data), name, th, GstatOptions{}, GstatStream{
		Table: func(_ *GstatAnalysis, ts *TableStats) error {
			if onTable != nil {
				onTable(ts)
			}
			tables = append(tables, keptTable(ts))
			return nil
		},
		Run: func(a *GstatAnalysis, _ *parse.GstatReport) error {
			a.Tables, tables = append([]TableStats{}, tables...), nil
			runs = append(runs, a)
			return nil
		},
	})
	return runs, err
}

// keptTable is a copy of a streamed table that a receiver can keep: the
// stream fills its Indices again for a later table.
func keptTable(ts *TableStats) TableStats {
	cp := *ts
	cp.Indices = slices.Clone(ts.Indices)
	return cp
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A receiver's error stops the stream and is returned; the parsing
// goroutine ends.
func TestStreamGstatStops(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	big := bytes.Repeat(data, 50)
	stop := errors.New("enough")
	seen := 0
	before := runtime.NumGoroutine()
	err := StreamGstat(bytes.NewReader(big), "x", NewThresholds(), GstatOptions{}, GstatStream{
		Table: func(*GstatAnalysis, *TableStats) error {
			seen++
			if seen == 3 {
				return stop
			}
			return nil
		},
	})
	if !errors.Is(err, stop) || seen != 3 {
		t.Errorf("err %v after %d tables", err, seen)
	}
	testutil.WaitGoroutines(t, before, "a stream stopped by Table")
}

// A receiver's panic is raised again on the caller's goroutine, where a
// recover sees it (the report turns an analysis's panic into a section
// that says so), with its value and where it was raised; the stream's
// goroutines end.
func TestStreamGstatPanicReachesCaller(t *testing.T) {
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	big := bytes.Repeat(data, 20)
	for _, at := range []string{"Table", "Parsed", "Run", "Sink"} {
		before := runtime.NumGoroutine()
		boom := func(where string) {
			if where == at {
				panic("boom in " + at)
			}
		}
		got := func() (r any) {
			defer func() { r = recover() }()
			StreamGstat(bytes.NewReader(big), "x", NewThresholds(), GstatOptions{}, GstatStream{
				Table:  func(*GstatAnalysis, *TableStats) error { boom("Table"); return nil },
				Parsed: func(*parse.GstatTable, *parse.GstatIndex) { boom("Parsed") },
				Run:    func(*GstatAnalysis, *parse.GstatReport) error { boom("Run"); return nil },
				Sink:   func(*GstatAnalysis) WarningSink { boom("Sink"); return counted{} },
			})
			return nil
		}()
		err, ok := got.(error)
		if !ok || !strings.HasPrefix(err.Error(), "boom in "+at+"\n") || !strings.Contains(err.Error(), "gstat_stream_test.go") {
			t.Errorf("%s: recovered %v, want an error starting %q with its stack", at, got, "boom in "+at)
		}
		testutil.WaitGoroutines(t, before, "a stream that panicked in "+at)
	}
}

// The receivers are called one at a time, in the order of the input,
// though the workers that evaluated the tables call them: each sees the
// calls before it done, and the tables come in the order GstatWith lists
// them. A run's error from Run stops the stream too.
func TestStreamGstatReceiversInTurn(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	big := bytes.Repeat(data, 40)
	reps, err := parse.ReadGstat(bytes.NewReader(big), "x")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, rep := range reps {
		for _, ts := range GstatWith(rep, NewThresholds(), GstatOptions{}).Tables {
			want = append(want, ts.Name)
		}
	}
	var in atomic.Int32
	enter := func() {
		if n := in.Add(1); n != 1 {
			t.Errorf("%d receivers at once", n)
		}
	}
	var got []string
	parsed, runs := 0, 0
	err = StreamGstat(bytes.NewReader(big), "x", NewThresholds(), GstatOptions{}, GstatStream{
		Parsed: func(*parse.GstatTable, *parse.GstatIndex) {
			enter()
			parsed++
			in.Add(-1)
		},
		Table: func(_ *GstatAnalysis, ts *TableStats) error {
			enter()
			defer in.Add(-1)
			got = append(got, ts.Name)
			if len(got)%50 == 0 {
				time.Sleep(time.Millisecond) // (a slow receiver: the next worker waits)
			}
			return nil
		},
		Run: func(*GstatAnalysis, *parse.GstatReport) error {
			enter()
			defer in.Add(-1)
			runs++
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || runs != len(reps) || parsed != len(want) {
		t.Errorf("%d tables (%d parsed, %d runs), want %d in GstatWith's order (%d runs)", len(got), parsed, runs, len(want), len(reps))
	}

	before := runtime.NumGoroutine()
	stop := errors.New("enough")
	runs = 0 // (the first run's Run stops it)
	err = StreamGstat(bytes.NewReader(big), "x", NewThresholds(), GstatOptions{}, GstatStream{
		Run: func(*GstatAnalysis, *parse.GstatReport) error { runs++; return stop },
	})
	if !errors.Is(err, stop) || runs != 1 {
		t.Errorf("err %v after %d runs, want %v after 1", err, runs, stop)
	}
	testutil.WaitGoroutines(t, before, "a stream stopped by Run")
}

// benchGstatInput is an 8 MiB gstat -a -r made of the fb30 sample's
// table blocks (internal/bigfile, as tools/make-big).
func benchGstatInput(b *testing.B) []byte {
	_, big := testutil.BigGstat(b, 8<<20)
	return big
}

// BenchmarkReadLines is the yardstick of README's performance figures:
// counting the lines of the input, as wc -l does.
func BenchmarkReadLines(b *testing.B) {
	data := benchGstatInput(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if bytes.Count(data, []byte{'\n'}) == 0 {
			b.Fatal("no lines")
		}
	}
}

// BenchmarkStreamGstat parses and analyses the same input table by table
// (what gstat's text output does before printing), warnings limited to
// the 20 the text shows.
func BenchmarkStreamGstat(b *testing.B) {
	data := benchGstatInput(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := StreamGstat(bytes.NewReader(data), "big", NewThresholds(), GstatOptions{}, GstatStream{
			WarningLimit: 20,
			Table:        func(*GstatAnalysis, *TableStats) error { n++; return nil },
		})
		if err != nil || n == 0 {
			b.Fatal(n, err)
		}
	}
}

// FuzzStreamGstat: on any input, the streamed analysis (tables evaluated
// on several workers, added in order) is GstatWith's, run by run, as JSON;
// and so it is with the warnings limited (the worst kept, the others
// counted by severity),
// and with the warnings given to a sink, those it keeps (put, not
// dropped) in order: there, the repeated keys are looked for among
// hashes on 256 bits, most sharing one with another.
func FuzzStreamGstat(f *testing.F) {
	defer func(b int) { sunkBits = b }(sunkBits)
	sunkBits = 8
	defer func(p int) { lanePiece = p }(lanePiece)
	lanePiece = 512 // (the inputs are cut into pieces read on their own)
	for _, name := range []string{testutil.GstatSeed, testutil.GstatLaterSeed} {
		for _, s := range testutil.FuzzSeeds(f, name) {
			f.Add(s)
		}
	}
	data := testutil.ReadTestdata(f, "fb30", "shop-gstat-a-r.txt")
	f.Add(append(bytes.Repeat(data, 3), data[:len(data)/2]...)) // three runs and a cut one
	// A block printed twice, worse the second time: warnings dropped.
	start, end := bytes.Index(data, []byte("CUSTOMER (129)\n")), bytes.Index(data, []byte("DOCS (133)\n"))
	again := bytes.Replace(data[start:end], []byte("total fragments: 3125"), []byte("total fragments: 4000"), 1)
	f.Add(slices.Concat(data[:end], again, data[end:]))
	th := NewThresholds()
	f.Fuzz(func(t *testing.T, in []byte) {
		want, rerr := wholeRuns(in, "f", th)
		got, serr := streamedRuns(in, "f", th, nil)
		if (rerr == nil) != (serr == nil) {
			t.Fatalf("read %v, streamed %v", rerr, serr)
		}
		if rerr != nil {
			return
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if !bytes.Equal(w, g) {
			i := firstDiff(w, g)
			t.Fatalf("streamed analysis differs at byte %d:\n…%.300s\nwant\n…%.300s", i, g[max(i-100, 0):], w[max(i-100, 0):])
		}
		var sinks []*recordSink
		runs := 0
		if err := StreamGstat(bytes.NewReader(in), "f", th, GstatOptions{}, GstatStream{
			Sink: func(*GstatAnalysis) WarningSink {
				sinks = append(sinks, &recordSink{put: map[int]Warning{}})
				return sinks[len(sinks)-1]
			},
			Run: func(*GstatAnalysis, *parse.GstatReport) error {
				runs++
				return nil
			},
		}); err != nil {
			t.Fatal(err)
		}
		if runs != len(want) || len(sinks) != len(want) {
			t.Fatalf("%d runs through a sink (%d sinks), %d whole", runs, len(sinks), len(want))
		}
		for i, s := range sinks {
			kept := []Warning{}
			for id, w := range s.put {
				if !slices.Contains(s.dropped, id) {
					kept = append(kept, w)
				}
			}
			SortWarnings(kept)
			kw, _ := json.Marshal(kept)
			ww, _ := json.Marshal(append([]Warning{}, want[i].Warnings...))
			if len(kept) != len(want[i].Warnings) || !bytes.Equal(kw, ww) {
				t.Fatalf("run %d through a sink kept %d warnings, want %d:\n%s\nwant\n%s", i, len(kept), len(want[i].Warnings), kw, ww)
			}
		}
		// Limited to 3 warnings: the 3 worst of the whole, the rest counted.
		var lim []*GstatAnalysis
		if err := StreamGstat(bytes.NewReader(in), "f", th, GstatOptions{}, GstatStream{
			WarningLimit: 3,
			Run: func(a *GstatAnalysis, _ *parse.GstatReport) error {
				lim = append(lim, a)
				return nil
			},
		}); err != nil {
			t.Fatal(err)
		}
		if len(lim) != len(want) {
			t.Fatalf("%d runs limited, %d whole", len(lim), len(want))
		}
		for i, a := range lim {
			n := min(3, len(want[i].Warnings))
			lw, _ := json.Marshal(a.Warnings)
			ww, _ := json.Marshal(want[i].Warnings[:n])
			if !bytes.Equal(lw, ww) || a.Totals.Warnings != len(want[i].Warnings) {
				t.Fatalf("run %d limited: %s (%d in all)\nwant %s (%d)", i, lw, a.Totals.Warnings, ww, len(want[i].Warnings))
			}
			omitted := map[Severity]int{}
			for _, w := range want[i].Warnings[n:] {
				omitted[w.Severity]++
			}
			if len(a.WarningsOmitted) != len(omitted) || !maps.Equal(a.WarningsOmitted, omitted) && len(omitted) > 0 {
				t.Fatalf("run %d limited: omitted %v, want %v", i, a.WarningsOmitted, omitted)
			}
		}
	})
}

// GstatStream.Runs: of three runs (the fb30 sample, the growth series'
// grow-10 snapshot and the sample again), a stream told to keep the second
// and third passes those two, analysed as GstatWith analyses them, and
// asks about every run; told to keep none, it passes none.
func TestStreamGstatRuns(t *testing.T) {
	th := NewThresholds()
	data := slices.Concat(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"),
		testutil.ReadTestdata(t, "growth", "grow-10-a-r.txt"), testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	whole, err := wholeRuns(data, "three", th)
	if err != nil || len(whole) != 3 {
		t.Fatalf("%d runs, %v", len(whole), err)
	}
	asked := map[int]bool{}
	var tables []TableStats
	var got []*GstatAnalysis
	err = StreamGstat(bytes.NewReader(data), "three", th, GstatOptions{}, GstatStream{
		Runs: func(i int) bool { asked[i] = true; return i > 0 },
		Table: func(_ *GstatAnalysis, ts *TableStats) error {
			tables = append(tables, keptTable(ts))
			return nil
		},
		Run: func(a *GstatAnalysis, _ *parse.GstatReport) error {
			a.Tables, tables = tables, nil
			got = append(got, a)
			return nil
		},
	})
	if err != nil || len(got) != 2 || len(asked) != 3 {
		t.Fatalf("%d runs passed, runs asked about %v, %v", len(got), asked, err)
	}
	for i, a := range got {
		w, _ := json.Marshal(whole[i+1])
		g, _ := json.Marshal(a)
		if a.Report != i+1 || len(a.Tables) != len(whole[i+1].Tables) || !bytes.Equal(w, g) {
			t.Errorf("run %d (%d tables): differs from the whole analysis of run %d at byte %d", a.Report, len(a.Tables), i+1, firstDiff(w, g))
		}
	}
	none := 0
	err = StreamGstat(bytes.NewReader(data), "three", th, GstatOptions{}, GstatStream{
		Runs:  func(int) bool { return false },
		Table: func(*GstatAnalysis, *TableStats) error { none++; return nil },
		Run:   func(*GstatAnalysis, *parse.GstatReport) error { none++; return nil },
	})
	if err != nil || none != 0 {
		t.Fatalf("no run kept: %d tables and runs passed, %v", none, err)
	}
}

// An input with no gstat output in it is an error before any receiver
// hears of it: its lines make a run of notices alone when read whole,
// and a stream passes that run to no hook (the JSON view wrote an empty
// document for it).
func TestStreamGstatNoGstat(t *testing.T) {
	for _, in := range []string{"hello\nworld (x)\n\x00\x01\n", ""} {
		called := []string{}
		err := StreamGstat(strings.NewReader(in), "junk.txt", NewThresholds(), GstatOptions{}, GstatStream{
			Sink: func(*GstatAnalysis) WarningSink { called = append(called, "sink"); return counted{} },
			Table: func(*GstatAnalysis, *TableStats) error {
				called = append(called, "table")
				return nil
			},
			Run: func(*GstatAnalysis, *parse.GstatReport) error {
				called = append(called, "run")
				return nil
			},
		})
		if !errors.Is(err, parse.ErrNoGstat) || err.Error() != "junk.txt: no gstat output found" || len(called) != 0 {
			t.Errorf("%q: err %v, hooks called %v", in, err, called)
		}
	}
}

// A run with nothing but notices in it, beside a run of the shop
// sample, is passed on in its place, first or last, as read whole.
func TestStreamGstatEmptyRunPassedOn(t *testing.T) {
	shop, err := os.ReadFile(filepath.Join("..", "testdata", "fb30", "shop-gstat-a-r.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"Analyzing database pages ...\njunk\n\n" + string(shop),
		string(shop) + "\nDatabase \"/x.fdb\"\nrandom junk\nmore junk\n",
	} {
		reps, err := parse.ReadGstat(strings.NewReader(in), "x.txt")
		if err != nil || len(reps) != 2 {
			t.Fatalf("read whole: %d runs, %v", len(reps), err)
		}
		var tables []int
		err = StreamGstat(strings.NewReader(in), "x.txt", NewThresholds(), GstatOptions{}, GstatStream{
			Run: func(a *GstatAnalysis, rep *parse.GstatReport) error {
				tables = append(tables, a.Totals.Tables)
				if len(rep.Notices) != len(reps[rep.Index].Notices) {
					t.Errorf("run %d: %d notices, %d read whole", rep.Index, len(rep.Notices), len(reps[rep.Index].Notices))
				}
				return nil
			},
		})
		want := []int{0, len(reps[1].Tables)}
		if len(reps[0].Tables) > 0 {
			want = []int{len(reps[0].Tables), 0}
		}
		if err != nil || !slices.Equal(tables, want) || want[0]+want[1] != 6 {
			t.Errorf("%.40q: tables by run %v, want %v (%v)", in, tables, want, err)
		}
	}
}

// Inputs the lanes cut only in part: LF line ends, then lone CR ones
// (no LF to cut at: past laneMaxPiece, the rest is read in order on one
// worker), or CR LF
// throughout; and lone CR throughout, which the parser's goroutine
// reads. Each gives the whole analysis.
func TestStreamGstatLineEnds(t *testing.T) {
	defer func(p, m int) { lanePiece, laneMaxPiece = p, m }(lanePiece, laneMaxPiece)
	laneMaxPiece = 4 << 10 // (past 4 KiB without a cut, the rest in order)
	data := testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")
	data = bytes.Repeat(data, 3)
	half := bytes.Index(data[len(data)/3:], []byte("\n\n")) + len(data)/3 + 2
	inputs := map[string][]byte{
		"lf then cr": append(data[:half:half], bytes.ReplaceAll(data[half:], []byte("\n"), []byte("\r"))...),
		"crlf":       bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")),
		"cr":         bytes.ReplaceAll(data, []byte("\n"), []byte("\r")),
	}
	th := NewThresholds()
	for name, in := range inputs {
		for _, piece := range []int{300, 2 << 10} {
			lanePiece = piece
			want, rerr := wholeRuns(in, name, th)
			got, serr := streamedRuns(in, name, th, nil)
			if rerr != nil || serr != nil || len(got) != 3 {
				t.Fatalf("%s, pieces of %d: %d runs, read %v, streamed %v", name, piece, len(got), rerr, serr)
			}
			w, _ := json.Marshal(want)
			g, _ := json.Marshal(got)
			if !bytes.Equal(w, g) {
				t.Errorf("%s, pieces of %d: streamed analysis differs at byte %d", name, piece, firstDiff(w, g))
			}
		}
	}
}

// failAfter reads r, then fails with err.
type failAfter struct {
	r   io.Reader
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// A read error in the middle of the input ends the stream with it, at
// the line it cut, on the lanes (a piece read in order to the error) as
// without them, after the same tables.
func TestStreamGstatReadError(t *testing.T) {
	defer func(p int) { lanePiece, noLanes = p, false }(lanePiece)
	_, big := testutil.BigGstat(t, 1<<20)
	cut := len(big) / 2
	broken := errors.New("disk read failed")
	var msgs []string
	var counts []int
	for _, lanes := range []bool{true, false} {
		lanePiece, noLanes = 4<<10, !lanes
		tables := 0
		err := StreamGstat(&failAfter{bytes.NewReader(big[:cut]), broken}, "big", NewThresholds(), GstatOptions{}, GstatStream{
			Table: func(*GstatAnalysis, *TableStats) error { tables++; return nil },
		})
		if !errors.Is(err, broken) && (err == nil || !strings.Contains(err.Error(), broken.Error())) {
			t.Fatalf("lanes %v: %v, want the read error", lanes, err)
		}
		msgs, counts = append(msgs, err.Error()), append(counts, tables)
	}
	if msgs[0] != msgs[1] || counts[0] != counts[1] || counts[0] == 0 {
		t.Errorf("on the lanes %q after %d tables, without %q after %d", msgs[0], counts[0], msgs[1], counts[1])
	}
	t.Logf("%q after %d tables", msgs[0], counts[0])
	if !strings.HasPrefix(msgs[0], "big:") {
		t.Errorf("%q: no file:line", msgs[0])
	}
}
