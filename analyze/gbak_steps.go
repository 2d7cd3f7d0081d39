package analyze

import (
	"bytes"
	"encoding/json"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// GbakRunSteps is what a comparison keeps of one run's steps: the key,
// the label, the kind, the start and the cost of each, in log order; no
// message, no I/O: a record of 72 bytes and its two strings per step.
type GbakRunSteps struct {
	steps []runStep
}

// runStep is one step of a GbakRunSteps.
type runStep struct {
	key   string // GbakStep.Key
	name  string // GbakStep.MatchLabel
	kind  parse.GbakKind
	sec   float64
	start float64
	flags uint8
}

const (
	hasSeconds = 1 << iota
	hasStart
	lowerBound
)

// Len is the number of steps kept.
func (r *GbakRunSteps) Len() int { return len(r.steps) }

// Add keeps what a comparison needs of a step.
func (r *GbakRunSteps) Add(st *GbakStep) {
	s := runStep{kind: st.Kind}
	// (the strings of a step may share the memory of its line: the key
	// and the label are copies)
	s.key = strings.Clone(st.Key())
	s.name = strings.Clone(st.MatchLabel())
	if st.Seconds != nil {
		s.sec, s.flags = *st.Seconds, s.flags|hasSeconds
	}
	if st.Start != nil {
		s.start, s.flags = *st.Start, s.flags|hasStart
	}
	if st.LowerBound {
		s.flags |= lowerBound
	}
	r.steps = append(r.steps, s)
}

// Stream keeps the steps of a streamed timeline (StreamGbakTimeline), and
// none of its errors and warnings, which a comparison does not show: the
// timeline counts them (a log of a million error lines kept 132 MB).
func (r *GbakRunSteps) Stream() GbakStream {
	return GbakStream{
		Step:    func(st *GbakStep) error { r.Add(st); return nil },
		Error:   dropMessage,
		Warning: dropMessage,
	}
}

func dropMessage(string) error { return nil }

// GbakSteps are the steps of a comparison, in the order they were first
// met (the runs in order): one row per step key and occurrence. A row is
// made when it is read (At, All), from the runs' GbakRunSteps: the rows
// are about 1 KB each, and two logs of 283,350 steps have as many.
type GbakSteps struct {
	c    *GbakComparison
	runs []*GbakRunSteps
	// at is, for each row and run, the position of the row's step in
	// the run's steps, -1 where the run has none.
	at     []int32
	n      int
	sideOf []int
	// top is each row's largest median of any side, -1 when none;
	// slowest the rows sorted by it, the largest first (stable).
	top     []float64
	slowest []int32
	// padj are the adjusted p, one per row and side after the baseline
	// (NaN: none); nil when there were fewer than two tests.
	padj []float64
	// dup is the occurrence of the rows of a key met again in a run.
	dup map[int32]int
}

// Len is the number of rows.
func (s *GbakSteps) Len() int { return s.n }

// At makes the i-th row.
func (s *GbakSteps) At(i int) GbakStepComparison {
	var row GbakStepComparison
	s.row(i, &row)
	s.adjusted(i, &row)
	return row
}

// All makes the rows in order.
func (s *GbakSteps) All() iter.Seq2[int, GbakStepComparison] {
	return func(yield func(int, GbakStepComparison) bool) {
		for i := range s.n {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Slowest is the rows' positions, the largest median of any side first
// (a stable order), then those of no known cost in row order.
func (s *GbakSteps) Slowest() []int32 { return s.slowest }

// Name is the i-th row's Name, without making the row.
func (s *GbakSteps) Name(i int) string { return s.first(i).name }

// Kind is the i-th row's Kind.
func (s *GbakSteps) Kind(i int) string { return string(s.first(i).kind) }

// Found reports whether the i-th row's step is in the given run (a
// position of Runs): a null in Seconds is a step the run does not have,
// or one whose cost its log does not give.
func (s *GbakSteps) Found(i, run int) bool { return s.at[i*len(s.runs)+run] >= 0 }

// Only is the i-th row's Only: the label of the only side it is found in.
func (s *GbakSteps) Only(i int) *string {
	at := s.at[i*len(s.runs) : (i+1)*len(s.runs)]
	if !slices.Contains(at, -1) {
		return nil
	}
	side := -1
	for run, k := range at {
		if k < 0 {
			continue
		}
		if side >= 0 && s.sideOf[run] != side {
			return nil
		}
		side = s.sideOf[run]
	}
	l := s.c.Sides[side].Label
	return &l
}

func (s *GbakSteps) first(i int) *runStep {
	for run, k := range s.at[i*len(s.runs) : (i+1)*len(s.runs)] {
		if k >= 0 {
			return &s.runs[run].steps[k]
		}
	}
	panic("analyze: a comparison row without a step")
}

// row makes the i-th row before the adjustment of its p.
func (s *GbakSteps) row(i int, row *GbakStepComparison) {
	f := s.first(i)
	key := f.key
	*row = GbakStepComparison{Name: f.name, Kind: string(f.kind), Seconds: make([]*float64, len(s.runs))}
	vals := make([]float64, len(s.runs))
	for run, k := range s.at[i*len(s.runs) : (i+1)*len(s.runs)] {
		if k < 0 {
			continue
		}
		st := &s.runs[run].steps[k]
		if st.flags&hasSeconds != 0 && st.flags&lowerBound == 0 { // a bound is no cost to set against another
			vals[run] = st.sec
			row.Seconds[run] = &vals[run]
		}
	}
	row.Key = key
	if n := s.occurrence(i); n > 1 {
		row.Key = key + "#" + strconv.Itoa(n)
	}
	row.Only = s.Only(i)
	s.c.compareRow(row, s.sideOf)
}

// occurrence is the i-th row's occurrence of its key in its first run.
func (s *GbakSteps) occurrence(i int) int {
	if n, ok := s.dup[int32(i)]; ok {
		return n
	}
	return 1
}

// MarshalJSON writes the rows as an array.
func (s GbakSteps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // (the encoder of the whole escapes, or not)
	b.WriteByte('[')
	for i, row := range s.All() {
		if i > 0 {
			b.Truncate(b.Len() - 1) // the encoder's newline
			b.WriteByte(',')
		}
		if err := enc.Encode(&row); err != nil {
			return nil, err
		}
	}
	if s.n > 0 {
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// JSONLen and JSONAt let a writer stream the rows one at a time.
func (s GbakSteps) JSONLen() int { return s.n }

// JSONAt is the i-th row to encode.
func (s GbakSteps) JSONAt(i int) any {
	row := s.At(i)
	return &row
}

// newGbakSteps matches the steps of the runs by key and occurrence.
func newGbakSteps(c *GbakComparison, runs []GbakRun, sideOf []int) GbakSteps {
	s := GbakSteps{c: c, sideOf: sideOf, runs: make([]*GbakRunSteps, len(runs))}
	for i, r := range runs {
		s.runs[i] = r.Steps
		if s.runs[i] == nil {
			rs := &GbakRunSteps{steps: make([]runStep, 0, len(r.Timeline.Steps))}
			for j := range r.Timeline.Steps {
				rs.Add(&r.Timeline.Steps[j])
			}
			s.runs[i] = rs
		}
	}
	rowOf := map[string]int32{}
	s.dup = map[int32]int{}
	nr := len(runs)
	for ri, r := range s.runs {
		seen := map[string]int{}
		for si := range r.steps {
			k := r.steps[si].key
			seen[k]++
			if n := seen[k]; n > 1 {
				k += "#" + strconv.Itoa(n)
			}
			row, ok := rowOf[k]
			if !ok {
				row = int32(s.n)
				rowOf[k] = row
				if n := seen[r.steps[si].key]; n > 1 {
					s.dup[row] = n
				}
				s.n++
				for range nr {
					s.at = append(s.at, -1)
				}
			}
			s.at[int(row)*nr+ri] = int32(si)
		}
	}
	return s
}

// topMedian is what Slowest ranks a row by: its largest median, -1
// without one.
func topMedian(row *GbakStepComparison) float64 {
	top := -1.0
	for _, v := range row.Median {
		if v != nil && *v > top {
			top = *v
		}
	}
	return top
}

// sortSlowest orders the rows for Slowest by top (topMedian of each).
func (s *GbakSteps) sortSlowest() {
	s.slowest = make([]int32, s.n)
	for i := range s.slowest {
		s.slowest[i] = int32(i)
	}
	slices.SortStableFunc(s.slowest, func(a, b int32) int {
		switch x, y := s.top[a], s.top[b]; {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
}
