package report

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/sampletest"
	"github.com/fbdiag/fbdiag/internal/testutil"
	"github.com/fbdiag/fbdiag/parse"
)

// stdTableStats is a table as encoding/json writes it in the tables
// array (the oracle of appendTableStats); with guard, as a
// printable.Writer passes those bytes on. ok is false when encoding/json
// refuses the table.
func stdTableStats(t testing.TB, ts *analyze.TableStats, guard bool) (string, bool) {
	t.Helper()
	out, err := stdJSON(ts, tableIndent)
	if err != nil {
		return "", false
	}
	if !guard {
		return out, true
	}
	var g bytes.Buffer
	if _, err := printable.NewWriter(&g).Write([]byte(out)); err != nil {
		t.Fatal(err)
	}
	return g.String(), true
}

// checkTableStats fails unless appendTableStats writes the oracle's bytes
// for ts, guarded and not, or refuses what encoding/json refuses.
func checkTableStats(t testing.TB, what string, ts *analyze.TableStats) {
	t.Helper()
	for _, guard := range []bool{false, true} {
		got, ok := appendTableStats([]byte("prefix"), ts, guard)
		want, wantOK := stdTableStats(t, ts, guard)
		if ok != wantOK {
			t.Fatalf("%s (guard %v): appendTableStats ok %v, encoding/json ok %v", what, guard, ok, wantOK)
		}
		if ok && string(got[len("prefix"):]) != want {
			t.Fatalf("%s (guard %v): %s", what, guard, firstDifference(want, string(got[len("prefix"):])))
		}
	}
}

// gstatSamples are the gstat outputs of the corpus and testdata.
func gstatSamples(t testing.TB) []string {
	corpus := testutil.CorpusDir(t)
	return globAll(t, "gstat samples", 80,
		filepath.Join(corpus, "public", "gstat", "*"),
		filepath.Join(corpus, "fb30", "*gstat*"),
		testutil.Testdata(t, "fb30", "*gstat*"),
		testutil.Testdata(t, "gstat", "*.txt"),
		testutil.Testdata(t, "growth", "*.txt"),
		testutil.Testdata(t, "mixed", "*.txt"))
}

// TestAppendTableStats: the hand-written encoding of every table of every
// gstat sample of the corpus and testdata (and of their variants with
// huge numbers), of tables with every field null, set or empty, strings
// with every kind of escape and floats at the ends of the plain form, and
// of random tables, has encoding/json's bytes, and printable.Writer's
// when guarded.
func TestAppendTableStats(t *testing.T) {
	t.Parallel() // (heavy: beside the other parallel tests)
	// A new field must be taught to appendTableStats and appendIndexStats
	// (fillRandom fails on a type it does not know).
	if n := reflect.TypeFor[analyze.TableStats]().NumField(); n != 29 {
		t.Fatalf("TableStats has %d fields; appendTableStats writes 28 (Fill is not in JSON)", n)
	}
	if n := reflect.TypeFor[analyze.IndexStats]().NumField(); n != 27 {
		t.Fatalf("IndexStats has %d fields; appendIndexStats writes 26 (and depthBasis is not exported)", n)
	}
	tables, indices := 0, 0
	for _, path := range gstatSamples(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{data, bytes.ReplaceAll(data, []byte("0"), []byte("9999999999"))} {
			reps, _ := parse.ReadGstat(bytes.NewReader(text), filepath.Base(path))
			for _, rep := range reps {
				a := analyze.Gstat(rep, analyze.NewThresholds())
				for i := range a.Tables {
					checkTableStats(t, filepath.Base(path)+": "+a.Tables[i].Name, &a.Tables[i])
					tables++
					indices += len(a.Tables[i].Indices)
				}
			}
		}
	}
	if tables < 1000 || indices < 1000 {
		t.Fatalf("%d tables, %d indices", tables, indices)
	}

	f := func(v float64) *float64 { return &v }
	i := func(v int64) *int64 { return &v }
	s := func(v string) *string { return &v }
	fill := parse.GstatFill{1, 0, -3, 1 << 62, 5}
	full := analyze.IndexStats{Name: "RDB$PRIMARY1", ID: 1, Table: "T", Kind: "primary key", KindSource: "name",
		Constraint: s("PK_T"), Depth: i(3), LeafBuckets: i(0), Nodes: i(-1 << 63), TotalDup: i(1<<63 - 1), MaxDup: i(7), SizeBytes: i(4096),
		UniqueKeys: i(1), Selectivity: f(1e-7), DupRatio: f(0.5), MaxDupShare: f(1e21), ClusteringFactor: i(9), ClusteringRatio: f(math.Copysign(0, -1)),
		Fill: &fill, LightShare: f(9.99e-7), NeededDepth: i(2), RebuiltDepth: i(2), FanOut: f(123456789012345678901234.0),
		LowerDepthPageSize: i(16384), LowerDepth: i(1)}
	odd := []string{"", "a\"b\\c", "\b\f\n\r\t\x00\x01\x1f\x7f", "<&>", "Восстановление 測試 😀", "bad \xff\xfe utf8 \xe2\x82",
		"sep \u2028 \u2029 end", `"PUBLIC"."ORDER_LINE"`, "c1 \u0085 \u009f bidi \u202e\u061c\u200e\u2066\u2069 \u202a", "\ufffd \u00a0 \u2000"}
	var hand []analyze.TableStats
	for _, name := range odd {
		ix := full
		ix.Name, ix.Table, ix.Kind, ix.KindSource, ix.Constraint = name, name, name, name, &name
		hand = append(hand,
			analyze.TableStats{Name: name, Schema: name, SizeSource: &name, Indices: []analyze.IndexStats{ix, {Name: name}}},
			analyze.TableStats{Name: name, BlobLevels: []int64{}, BlobLevelBytes: []int64{}, Indices: []analyze.IndexStats{}})
	}
	for _, v := range []float64{0, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 5e-324, 1e20, 1e21, math.MaxFloat64, -0.001, -1e-9, 0.1, 24.882, 605729.17, 1.0 / 3} {
		fi := 42
		hand = append(hand, analyze.TableStats{Name: "T", ID: -5, Records: i(1), Versions: i(0), MaxVersions: i(2),
			AvgRecord: f(v), AvgVersion: f(-v), AvgUnpacked: f(v * 3), VersionsPerRecord: f(v), Fragments: i(4), MaxFragments: i(5),
			FragmentsPerRecord: f(v), DataPages: i(6), AverageFill: &fi, PrimaryPages: i(7), SecondaryPages: i(8), SweptPages: i(9),
			BigRecordPages: i(10), SizeBytes: i(11), SizeSource: s("table_size"), TotalFormats: i(12), UsedFormats: i(13), Blobs: i(14),
			BlobLevels: []int64{1, 2, 3}, BlobLevelBytes: []int64{-1 << 63}, IndexBytes: i(15), Indices: []analyze.IndexStats{full, full}})
	}
	for k := range hand {
		checkTableStats(t, "hand-made table", &hand[k])
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkTableStats(t, "NaN or infinite table figure", &analyze.TableStats{AvgRecord: f(bad)})
		checkTableStats(t, "NaN or infinite index figure", &analyze.TableStats{Indices: []analyze.IndexStats{{FanOut: f(bad)}}})
	}

	rnd := rand.New(rand.NewPCG(16, 16))
	var seed [256]byte
	for n := range 3000 {
		for k := range seed {
			seed[k] = byte(rnd.Uint32())
		}
		var ts analyze.TableStats
		fillRandom(t, reflect.ValueOf(&ts).Elem(), &fuzzBytes{b: seed[:]})
		checkTableStats(t, "random table "+string(rune('0'+n%10)), &ts)
	}
}

// FuzzAppendTableStats compares appendTableStats with encoding/json on
// tables made from the fuzzer's bytes.
func FuzzAppendTableStats(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{1}, 200))
	f.Add(bytes.Repeat([]byte{0xff, 0x03, 0xe2, 0x80, 0xae}, 60))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ts analyze.TableStats
		fillRandom(t, reflect.ValueOf(&ts).Elem(), &fuzzBytes{b: data})
		checkTableStats(t, "fuzzed table", &ts)
	})
}

// fuzzBytes hands out the bytes of a fuzz input (zeros past its end).
type fuzzBytes struct{ b []byte }

func (s *fuzzBytes) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *fuzzBytes) uint64() uint64 {
	var x [8]byte
	for k := range x {
		x[k] = s.byte()
	}
	return binary.LittleEndian.Uint64(x[:])
}

// fuzzFloats are the floats at the edges of encoding/json's forms.
var fuzzFloats = []float64{0, math.Copysign(0, -1), 1e-6, 9.99e-7, 1e21, 9.99e20, 5e-324, math.MaxFloat64, 0.1, 1.0 / 3, 100, 1e-7, math.NaN(), math.Inf(1)}

// fuzzStrings are pieces of strings with what a JSON string escapes and
// what printable.Writer escapes.
var fuzzStrings = []string{"A", "\"", "\\", "\n", "\x00", "\x7f", "<", "&", "\u2028", "\u2029", "\u0085", "\u202e", "\u200f", "\xff", "\xe2\x80", "é", "😀", "\ufffd", " "}

// fillRandom sets v's exported fields from s: pointers nil or set, slices
// nil, empty or short, numbers of every size, floats among fuzzFloats or
// any bit pattern, strings of raw bytes or of fuzzStrings.
func fillRandom(t testing.TB, v reflect.Value, s *fuzzBytes) {
	switch v.Kind() {
	case reflect.Struct:
		for k := range v.NumField() {
			if v.Type().Field(k).IsExported() {
				fillRandom(t, v.Field(k), s)
			}
		}
	case reflect.Pointer:
		if s.byte()&3 != 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fillRandom(t, v.Elem(), s)
		}
	case reflect.Slice:
		switch c := s.byte() % 8; c {
		case 0:
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			v.Set(reflect.MakeSlice(v.Type(), int(c-1), int(c-1)))
			for k := range v.Len() {
				fillRandom(t, v.Index(k), s)
			}
		}
	case reflect.Array:
		for k := range v.Len() {
			fillRandom(t, v.Index(k), s)
		}
	case reflect.Int, reflect.Int64:
		x := int64(s.uint64())
		if s.byte()&1 == 0 {
			x %= 100000
		}
		v.SetInt(x)
	case reflect.Float64:
		if c := s.byte(); c < 128 {
			v.SetFloat(fuzzFloats[int(c)%len(fuzzFloats)])
		} else if c < 192 {
			v.SetFloat(float64(int64(s.uint64())%1000000) / 1000)
		} else {
			v.SetFloat(math.Float64frombits(s.uint64()))
		}
	case reflect.String:
		var b strings.Builder
		for range s.byte() % 8 {
			if c := s.byte(); c < 128 {
				b.WriteString(fuzzStrings[int(c)%len(fuzzStrings)])
			} else {
				b.WriteByte(s.byte())
			}
		}
		v.SetString(b.String())
	default:
		t.Fatalf("fillRandom: no values for %s", v.Type())
	}
}

// plainJSON8 agrees with a byte-by-byte test on every byte value at every
// position among plain bytes, and on random words.
func TestPlainJSON8(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	check := func(w [8]byte) {
		want := true
		for _, c := range w {
			want = want && plain(c)
		}
		if got := plainJSON8(printable.Load8(string(w[:]), 0)); got != want {
			t.Fatalf("plainJSON8(%q) = %v", w[:], got)
		}
	}
	for p := range 8 {
		for c := range 256 {
			w := [8]byte{'a', ' ', '~', 'z', '0', 0x7f, '!', '#'}
			w[p] = byte(c)
			check(w)
		}
	}
	rnd := rand.New(rand.NewPCG(8, 8))
	for range 200000 {
		var w [8]byte
		for k := range w {
			w[k] = byte(rnd.Uint32())
			if rnd.IntN(4) > 0 {
				w[k] = byte(0x20 + rnd.IntN(0x60))
			}
		}
		check(w)
	}
}

// appendWord writes what appendString writes, guarded or not: for the
// words of analyze's index kinds and sources and of a table size's
// source, the kinds and sources of every index and table of the corpus's
// samples, their near misses (another case, a byte more or less, an
// escape) and 100,000 random strings of their bytes.
func TestAppendWord(t *testing.T) {
	words := []string{analyze.IndexPrimaryKey, analyze.IndexForeignKey, analyze.IndexUnique, analyze.IndexPlain,
		analyze.IndexSystem, analyze.IndexUnknown, analyze.KindFromName, analyze.KindFromTable, analyze.KindFromCatalogue,
		"data_pages", "table_size", "", "Plain", "plain ", "plai", "uniqu\u0000", "name\"", "system\\", "\u202esystem", "\xffname"}
	for _, a := range sampletest.Analyses(t, [2]string{"fb30", "shop-gstat-a-r.txt"}, [2]string{"gstat", "shop-fb6-names.txt"}, [2]string{"gstat", "codes-4k-gstat-a-r.txt"}) {
		for _, tb := range a.Tables {
			if tb.SizeSource != nil {
				words = append(words, *tb.SizeSource)
			}
			for _, ix := range tb.Indices {
				words = append(words, ix.Kind, ix.KindSource)
			}
		}
	}
	if len(words) < 60 {
		t.Fatalf("%d words", len(words))
	}
	rng := rand.New(rand.NewPCG(41, 9))
	for range 100000 {
		w := []byte(words[rng.IntN(20)])
		for range rng.IntN(3) {
			if len(w) > 0 {
				w[rng.IntN(len(w))] = "_aeinmoprstuy\"\\\x00\xc3"[rng.IntN(17)]
			}
		}
		words = append(words, string(w))
	}
	for _, w := range words {
		for _, guard := range []bool{false, true} {
			if got, want := string(appendWord([]byte("x"), w, guard)), string(appendString([]byte("x"), w, guard)); got != want {
				t.Fatalf("%q, guard %v: %q, want %q", w, guard, got, want)
			}
		}
	}
}

// appendKey copies a key's padded block without a bounds check: into b's
// spare capacity when it holds the block, else into a grown b; it never
// writes past b's capacity (the bytes of the array beyond stay as they
// were) and appends the key's text alone, whatever b's length and spare
// room, for every key of a table and an index.
func TestAppendKeyWithinCapacity(t *testing.T) {
	var keys []*fieldKey
	for _, set := range []any{&tableKeys, &indexKeys} {
		v := reflect.ValueOf(set).Elem()
		for i := range v.NumField() {
			keys = append(keys, (*fieldKey)(v.Field(i).Addr().UnsafePointer()))
		}
	}
	const canary = 0xa5
	for _, k := range keys {
		text := string(k.text[:k.n])
		for n := range 20 {
			for spare := range fieldKeySize + 10 {
				arr := bytes.Repeat([]byte{canary}, n+spare+64)
				for i := range n {
					arr[i] = byte('a' + i%26)
				}
				b := appendKey(arr[:n:n+spare], k)
				if got, want := string(b), string(arr[:n])+text; got != want {
					t.Fatalf("key %q after %d bytes, %d spare: %q, want %q", text, n, spare, got, want)
				}
				grown := spare < fieldKeySize
				if &b[0] == &arr[0] == grown {
					t.Fatalf("key %q, %d spare: grown %v, want %v", text, spare, !grown, grown)
				}
				for i, c := range arr[n+spare:] {
					if c != canary {
						t.Fatalf("key %q after %d bytes, %d spare: byte %d past the capacity written", text, n, spare, i)
					}
				}
			}
		}
	}
}
