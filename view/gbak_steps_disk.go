package view

import (
	"cmp"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/internal/extsort"
	"github.com/fbdiag/fbdiag/parse"
)

// stepRow is what the steps table shows of a step. A CSV of every step
// of a log sorts them slowest first on disk (extsort), a few megabytes in
// memory, instead of keeping every step.
type stepRow struct {
	seq   int64 // the step's place in the log: ties keep it
	line  int64
	phase string
	// kind, object and name are JSON's, the CSV's columns; people read
	// the label made of them (analyze.GbakStep.Label), or msg, the
	// message, for a step named by it (kept only then: the rows are
	// spooled, and the label would repeat the name).
	kind, object, name, msg string
	start, seconds          *float64
	reads, writes           *int64
	bound                   bool
	wrapped                 bool
}

func newStepRow(st *analyze.GbakStep, seq int) stepRow {
	r := stepRow{seq: int64(seq), line: int64(st.Line), phase: st.Phase,
		kind: string(st.Kind), object: st.Object, name: st.Name,
		start: st.Start, seconds: st.Seconds, reads: st.Reads, writes: st.Writes, bound: st.LowerBound,
		wrapped: st.Wrapped}
	if l := st.Label(); l == st.Message || st.Kind == parse.GbakIgnored {
		r.msg = st.Message // (a skipped table's label is made of it)
	}
	return r
}

// label is the step's name for people, as analyze.GbakStep.Label.
func (r *stepRow) label() string {
	st := analyze.GbakStep{Kind: parse.GbakKind(r.kind), Object: r.object, Name: r.name, Message: r.msg}
	return st.Label()
}

func (r *stepRow) cells() []Cell {
	return []Cell{Int(r.line), Str(r.label()), Str(r.phase), SecP(r.start), SecP(r.seconds),
		pagesP(r.reads, r.wrapped), pagesP(r.writes, r.wrapped), atLeast(r.bound), boolCell(&r.bound),
		Str(r.kind), Str(r.object), Str(r.name)}
}

func compareStepRows(a, b stepRow) int {
	if c := compareCost(a.seconds, b.seconds); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// stepRowBudget is the memory the sorter holds before it writes a run
// (a variable: a test makes it small to go through the files).
var stepRowBudget = 4 << 20

var stepRowCodec = extsort.Codec[stepRow]{
	Append: func(b []byte, r stepRow) []byte {
		b = extsort.AppendInt(b, r.seq)
		b = extsort.AppendInt(b, r.line)
		b = extsort.AppendString(b, r.phase)
		b = extsort.AppendString(b, r.kind)
		b = extsort.AppendString(b, r.object)
		b = extsort.AppendString(b, r.name)
		b = extsort.AppendString(b, r.msg)
		for _, p := range [...]*float64{r.start, r.seconds} {
			if p == nil {
				b = extsort.AppendInt(b, 0)
			} else {
				b = extsort.AppendFloat(extsort.AppendInt(b, 1), *p)
			}
		}
		for _, p := range [...]*int64{r.reads, r.writes} {
			if p == nil {
				b = extsort.AppendInt(b, 0)
			} else {
				b = extsort.AppendInt(extsort.AppendInt(b, 1), *p)
			}
		}
		flags := int64(0)
		if r.bound {
			flags |= 1
		}
		if r.wrapped {
			flags |= 2
		}
		return extsort.AppendInt(b, flags)
	},
	Decode: func(b []byte) (stepRow, error) {
		f := extsort.NewFields(b)
		r := stepRow{seq: f.Int(), line: f.Int(), phase: f.Ref(), kind: f.Ref(), object: f.Ref(), name: f.Ref(), msg: f.Ref()}
		for _, p := range [...]**float64{&r.start, &r.seconds} {
			if f.Int() == 1 {
				v := f.Float()
				*p = &v
			}
		}
		for _, p := range [...]**int64{&r.reads, &r.writes} {
			if f.Int() == 1 {
				v := f.Int()
				*p = &v
			}
		}
		flags := f.Int()
		r.bound, r.wrapped = flags&1 != 0, flags&2 != 0
		return r, f.Err()
	},
	Size: func(r stepRow) int {
		return 168 + len(r.phase) + len(r.kind) + len(r.object) + len(r.name) + len(r.msg)
	},
}
