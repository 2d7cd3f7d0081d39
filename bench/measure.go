package bench

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fbdiag/fbdiag/parse"
)

// Kind is one of the five transactions, an index into parse.BenchKinds.
type Kind int

// The kinds, in the spec's order.
const (
	NewOrder Kind = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	nKinds
)

func (k Kind) String() string { return parse.BenchKinds[k] }

// outcome is how one business operation ended.
type outcome int

const (
	committed outcome = iota
	rolledBack
	gaveUp
	failed
)

// kindSecond is one kind's counts in one second, as a terminal records
// them; hist is sparse (bucket → count).
type kindSecond struct {
	committed, rolledBack, conflicts, gaveUp, errors int64
	sumMs, maxMs                                     float64
	hist                                             map[uint16]uint32
}

// recorder is one terminal's measurements: its own, so that terminals
// never wait for each other; merged when the run ends. The totals are
// atomic for the progress line.
type recorder struct {
	t0      time.Time
	seconds [][nKinds]kindSecond
	totals  *totals
}

// totals are the run's live counters, summed over the terminals.
type totals struct {
	committed [nKinds]atomic.Int64
	// rolledBack are the New-Orders rolled back by design.
	rolledBack atomic.Int64
	conflicts  atomic.Int64
	errors     atomic.Int64
}

// newOrdersDone are the New-Orders completed so far, as tpmC counts
// them: committed or rolled back by design.
func (t *totals) newOrdersDone() int64 {
	return t.committed[NewOrder].Load() + t.rolledBack.Load()
}

func (r *recorder) second(at time.Time) *[nKinds]kindSecond {
	s := int(at.Sub(r.t0) / time.Second)
	if s < 0 {
		s = 0
	}
	for len(r.seconds) <= s {
		r.seconds = append(r.seconds, [nKinds]kindSecond{})
	}
	return &r.seconds[s]
}

// conflict records a failed attempt at the moment it failed.
func (r *recorder) conflict(k Kind, at time.Time) {
	r.second(at)[k].conflicts++
	r.totals.conflicts.Add(1)
}

// done records an operation ended at end, started (first attempt) at
// start.
func (r *recorder) done(k Kind, o outcome, start, end time.Time) {
	ks := &r.second(end)[k]
	switch o {
	case committed:
		ms := float64(end.Sub(start)) / float64(time.Millisecond)
		ks.committed++
		ks.sumMs += ms
		ks.maxMs = max(ks.maxMs, ms)
		if ks.hist == nil {
			ks.hist = map[uint16]uint32{}
		}
		ks.hist[uint16(parse.BenchBucket(ms))]++
		r.totals.committed[k].Add(1)
	case rolledBack:
		ks.rolledBack++
		r.totals.rolledBack.Add(1)
	case gaveUp:
		ks.gaveUp++
	case failed:
		ks.errors++
		r.totals.errors.Add(1)
	}
}

// merge sums the terminals' seconds into the run's, seconds 0..upto-1,
// with each second's phase.
func merge(recs []*recorder, upto, warmup, windowEnd int) []parse.BenchSecond {
	out := make([]parse.BenchSecond, upto)
	for s := range out {
		out[s].T = s
		switch {
		case s < warmup:
			out[s].Phase = parse.PhaseWarmup
		case s < windowEnd:
			out[s].Phase = parse.PhaseWindow
		default:
			out[s].Phase = parse.PhaseDrain
		}
		for k := range nKinds {
			hist := map[uint16]uint32{}
			c := &out[s].Kinds[k]
			for _, r := range recs {
				if s >= len(r.seconds) {
					continue
				}
				ks := r.seconds[s][k]
				c.Committed += ks.committed
				c.RolledBack += ks.rolledBack
				c.Conflicts += ks.conflicts
				c.GaveUp += ks.gaveUp
				c.Errors += ks.errors
				c.SumMs += ks.sumMs
				c.MaxMs = max(c.MaxMs, ks.maxMs)
				for b, n := range ks.hist {
					hist[b] += n
				}
			}
			c.Latency = make([][2]uint32, 0, len(hist))
			for b, n := range hist {
				c.Latency = append(c.Latency, [2]uint32{uint32(b), n})
			}
			sort.Slice(c.Latency, func(i, j int) bool { return c.Latency[i][0] < c.Latency[j][0] })
		}
	}
	return out
}

// errorLog keeps the distinct error messages the terminals met (at most
// maxErrorMessages), with counts.
type errorLog struct {
	mu   sync.Mutex
	errs []parse.BenchError
}

const maxErrorMessages = 20

func (l *errorLog) add(k Kind, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.errs, func(e parse.BenchError) bool { return e.Kind == k.String() && e.Message == msg })
	if i >= 0 {
		l.errs[i].Count++
		return
	}
	if len(l.errs) < maxErrorMessages {
		l.errs = append(l.errs, parse.BenchError{Kind: k.String(), Message: msg, Count: 1})
	}
}

func (l *errorLog) list() []parse.BenchError {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]parse.BenchError{}, l.errs...)
}
