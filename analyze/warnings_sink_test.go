package analyze

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// recordSink keeps what a WarningSink is given.
type recordSink struct {
	put     map[int]Warning
	dropped []int
}

func (s *recordSink) Put(id int, w Warning) error {
	if _, ok := s.put[id]; ok {
		return fmt.Errorf("id %d put twice", id)
	}
	s.put[id] = w
	return nil
}

func (s *recordSink) Drop(id int) error {
	if _, ok := s.put[id]; !ok {
		return fmt.Errorf("id %d dropped, never put", id)
	}
	s.dropped = append(s.dropped, id)
	return nil
}

// Through a sink, one warning per object and rule stays as well: the
// shop's CUSTOMER block printed twice, the second time with 4000
// fragments, fires its warnings twice; when the run ends the sink drops
// the second of equal ones and the lesser table-fragments, and what it
// keeps is the analysis's warnings, counted alike. The warnings' keys are
// logged one to a chunk of the temporary file, and the suspects sorted
// one a run there, merged two at a time; with bitsets of 2^22 bits the
// six repeated keys alone are suspects, with 64 bits most keys are (they
// share a bit with another), and those that came once must stay.
func TestSinkOneWarningPerObject(t *testing.T) {
	defer func(b, f, n int) { sunkBudget, extsort.FanIn, sunkBits = b, f, n }(sunkBudget, extsort.FanIn, sunkBits)
	sunkBudget, extsort.FanIn = 1, 2
	for _, bits := range []int{22, 6} {
		t.Run(fmt.Sprintf("%d bits", bits), func(t *testing.T) {
			sunkBits = bits
			sinkOneWarningPerObject(t)
		})
	}
}

func sinkOneWarningPerObject(t *testing.T) {
	s := string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt"))
	start, end := strings.Index(s, "CUSTOMER (129)\n"), strings.Index(s, "DOCS (133)\n")
	again := strings.Replace(s[start:end], "total fragments: 3125", "total fragments: 4000", 1)
	text := s[:end] + again + s[end:]
	want := analyzeFile(t, shopAR.path(t), func(string) string { return text })[0]

	sink := &recordSink{put: map[int]Warning{}}
	var got *GstatAnalysis
	err := StreamGstat(strings.NewReader(text), "shop", NewThresholds(), GstatOptions{}, GstatStream{
		Sink: func(*GstatAnalysis) WarningSink { return sink },
		Run: func(a *GstatAnalysis, _ *parse.GstatReport) error {
			got = a
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The second block fires its three warnings again: the same
	// table-versions and index-sparse (the first of equals stays) and a
	// worse table-fragments (the first goes).
	var dropped []string
	for _, id := range sink.dropped {
		w := sink.put[id]
		dropped = append(dropped, fmt.Sprintf("%d %s %s %.4f", id, w.Rule, w.Object, w.Value))
	}
	slices.Sort(dropped)
	if want := []string{"1 table-fragments CUSTOMER 0.1042", "3 table-versions CUSTOMER 0.3333", "5 index-sparse RDB$PRIMARY2 0.8108"}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
	var kept []Warning
	for id, w := range sink.put {
		if !slices.Contains(sink.dropped, id) {
			kept = append(kept, w)
		}
	}
	SortWarnings(kept)
	if !slices.Equal(kept, want.Warnings) {
		t.Errorf("the sink kept %d warnings, the analysis %d:\n%v\nwant\n%v", len(kept), len(want.Warnings), kept, want.Warnings)
	}
	for _, sev := range []Severity{Critical, Warn, Info} {
		if g, w := got.WarningsAtLeast(sev), want.WarningsAtLeast(sev); g != w {
			t.Errorf("%d warnings at %s or worse through the sink, %d in the analysis", g, sev, w)
		}
	}
	if got.Totals.Warnings != len(want.Warnings) || len(want.Warnings) < 5 {
		t.Errorf("%d warnings counted, want the analysis's %d (5 or more)", got.Totals.Warnings, len(want.Warnings))
	}
}

// encodedSink is a recordSink that also takes encoded warnings.
type encodedSink struct {
	recordSink
	enc map[int]string
}

func (s *encodedSink) PutEncoded(id int, w Warning, enc []byte) error {
	s.enc[id] = string(enc)
	return s.Put(id, w)
}

// With EncodeWarning, each warning a table fires reaches the sink's
// PutEncoded with the bytes encoded from it on a worker; the others
// reach Put: the header's (oat-stuck and txid-headroom, with Next
// raised) before the tables, the corruption gstat reports after them.
// The sink gets the same warnings under the same ids as without.
func TestSinkEncodedWarnings(t *testing.T) {
	shop := replace("Next transaction\t18", "Next transaction\t267401226874912")(string(testutil.ReadTestdata(t, "fb30", "shop-gstat-a-r.txt")))
	corrupt := string(testutil.ReadTestdata(t, "gstat", "shop-odd-names-corrupt.txt"))
	for _, c := range []struct {
		name, text string
		encoded    int
		unencoded  []string
	}{
		{"shop, Next raised", shop, 9, []string{"oat-stuck", "txid-headroom"}},
		{"shop-odd-names-corrupt.txt", corrupt, 9, []string{"corruption"}},
	} {
		stream := func(encode func([]byte, *Warning) []byte) *encodedSink {
			sink := &encodedSink{recordSink{put: map[int]Warning{}}, map[int]string{}}
			err := StreamGstat(strings.NewReader(c.text), "shop", NewThresholds(), GstatOptions{}, GstatStream{
				Sink:          func(*GstatAnalysis) WarningSink { return sink },
				EncodeWarning: encode,
			})
			if err != nil {
				t.Fatal(err)
			}
			return sink
		}
		key := func(w *Warning) string { return w.Rule + "/" + w.Object + "/" + w.Table }
		plain := stream(nil)
		got := stream(func(b []byte, w *Warning) []byte { return append(b, key(w)...) })
		if len(plain.enc) != 0 {
			t.Errorf("%s: %d warnings encoded without EncodeWarning", c.name, len(plain.enc))
		}
		if !maps.EqualFunc(got.put, plain.put, func(a, b Warning) bool { return a == b }) {
			t.Errorf("%s: the sink got %d warnings with EncodeWarning, %d without, or not the same", c.name, len(got.put), len(plain.put))
		}
		var unencoded []string
		for id, w := range got.put {
			enc, ok := got.enc[id]
			if !ok {
				unencoded = append(unencoded, w.Rule)
				continue
			}
			if enc != key(&w) {
				t.Errorf("%s: warning %d (%s) came with the bytes of %q", c.name, id, key(&w), enc)
			}
		}
		slices.Sort(unencoded)
		if len(got.enc) != c.encoded || !slices.Equal(unencoded, c.unencoded) {
			t.Errorf("%s: %d warnings encoded, want %d; not encoded: %q, want %q", c.name, len(got.enc), c.encoded, unencoded, c.unencoded)
		}
	}
}
