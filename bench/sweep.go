package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
)

// The axes a sweep varies.
const (
	AxisBuffers    = "page_buffers"
	AxisTerminals  = "terminals"
	AxisWarehouses = "warehouses"
)

// SweepOptions are what bench sweep is asked: one axis, its values, the
// runs per value and the run's other settings.
type SweepOptions struct {
	Axis   string
	Values []int
	Runs   int
	Run    RunOptions
	// Jobs loads the warehouses of a warehouses sweep (default DefaultJobs).
	Jobs int
	// Starting, when set, is told before each run (and each load).
	Starting func(step SweepStep)
	// Each receives every run that completed; an error stops the sweep.
	Each func(s parse.BenchSweep, r *Result) error
}

// SweepStep is what a sweep is about to do.
type SweepStep struct {
	Sweep    parse.BenchSweep
	N, Total int  // run N of Total
	Loading  bool // loading warehouses up to Sweep.Value first
}

// SweepResult says how a sweep ended.
type SweepResult struct {
	Runs int // runs completed
	// PageBuffers is what a page-buffers sweep put back in the header.
	RestoredBuffers *int64
	Loads           []*LoadResult
	// Cut is the step an interruption stopped under way, its run not
	// kept; nil when none was (stopped between two runs).
	Cut *parse.BenchSweep
}

// Sweep runs Runs runs at every value of the axis. Page buffers are set in
// the header through the Services API before each run (the database is
// closed between runs, so each opens with its cache) and put back at the
// end; terminals are the run's; warehouses grow the database by loading
// more between steps, in ascending order, so sizes only grow. Page
// buffers and terminals go round by round (every value once, then again)
// so that a drift of the machine spreads over all values; warehouses
// cannot, and run their runs in a row.
func Sweep(ctx context.Context, srv collect.Server, database string, opt SweepOptions) (*SweepResult, error) {
	if len(opt.Values) == 0 || opt.Runs < 1 {
		return nil, fmt.Errorf("sweep: want values and 1 run or more")
	}
	for _, v := range opt.Values {
		if v < 1 {
			return nil, fmt.Errorf("sweep: %s %d: want 1 or more", opt.Axis, v)
		}
	}
	res := &SweepResult{}
	total := len(opt.Values) * opt.Runs
	type step struct{ value, run int }
	var steps []step
	switch opt.Axis {
	case AxisBuffers, AxisTerminals:
		for r := 1; r <= opt.Runs; r++ {
			for _, v := range opt.Values {
				steps = append(steps, step{v, r})
			}
		}
	case AxisWarehouses:
		vs := slices.Clone(opt.Values)
		slices.Sort(vs)
		for _, v := range slices.Compact(vs) {
			for r := 1; r <= opt.Runs; r++ {
				steps = append(steps, step{v, r})
			}
		}
		total = len(steps)
	default:
		return nil, fmt.Errorf("sweep: axis %q: want %s, %s or %s", opt.Axis, AxisBuffers, AxisTerminals, AxisWarehouses)
	}
	if opt.Axis == AxisBuffers {
		// A database bench init did not set up is refused before its
		// header is touched.
		db, err := srv.Pool(ctx, database, 1)
		if err != nil {
			return nil, err
		}
		_, err = runnable(ctx, srv, db, database)
		db.Close()
		if err != nil {
			return nil, err
		}
		before, err := srv.HeaderPageBuffers(ctx, database)
		if err != nil {
			return nil, err
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), collect.CleanupTimeout)
			defer cancel()
			if srv.SetPageBuffers(cctx, database, int(before)) == nil {
				res.RestoredBuffers = &before
			}
		}()
	}
	loaded := 0
	for i, st := range steps {
		if ctx.Err() != nil {
			return res, nil
		}
		sw := parse.BenchSweep{Axis: opt.Axis, Value: st.value, Run: st.run}
		ro := opt.Run
		ro.Sweep = &sw
		switch opt.Axis {
		case AxisBuffers:
			if err := srv.SetPageBuffers(ctx, database, st.value); err != nil {
				return res, interrupted(ctx, err)
			}
		case AxisTerminals:
			ro.Terminals = st.value
		case AxisWarehouses:
			if st.value > loaded {
				if opt.Starting != nil {
					opt.Starting(SweepStep{Sweep: sw, N: i + 1, Total: total, Loading: true})
				}
				lr, err := Init(ctx, srv, database, InitOptions{Warehouses: st.value, Jobs: opt.Jobs})
				if err != nil {
					return res, interrupted(ctx, err)
				}
				res.Loads = append(res.Loads, lr)
				// A database loaded further before the sweep is refused
				// now, not after a run at a size the step did not ask.
				if lr.Warehouses != st.value {
					return res, errWarehouses(database, lr.Warehouses, st.value)
				}
				if !lr.Consistent {
					return res, fmt.Errorf("%s: loading %s left the database failing its checks", database, units.Count(st.value, "warehouse"))
				}
				loaded = st.value
			}
		}
		if opt.Starting != nil {
			opt.Starting(SweepStep{Sweep: sw, N: i + 1, Total: total})
		}
		r, err := Run(ctx, srv, database, ro)
		if err != nil {
			if ctx.Err() != nil {
				res.Cut = &sw
			}
			return res, interrupted(ctx, err)
		}
		if r.Run.Partial {
			res.Cut = &sw
			return res, nil // interrupted: the partial run is not a point
		}
		// A database another attachment keeps open keeps its cache: the
		// header's buffers apply when the server opens it. Such a run
		// measured another setting than its row would say (256 and 1024
		// both ran with 2048, and the table compared them).
		if opt.Axis == AxisBuffers && r.Run.Server.PageBuffers != int64(st.value) {
			return res, fmt.Errorf("%s: the run at %d page buffers ran with %d (MON$PAGE_BUFFERS): another attachment kept the database open, and with it the server's cache, which the header's value sets only when the database is opened; close the other attachments (MON$ATTACHMENTS lists them) and sweep again",
				database, st.value, r.Run.Server.PageBuffers)
		}
		if opt.Axis == AxisWarehouses && r.Run.Warehouses != st.value {
			return res, errWarehouses(database, r.Run.Warehouses, st.value)
		}
		res.Runs++
		if opt.Each != nil {
			if err := opt.Each(sw, r); err != nil {
				return res, err
			}
		}
		// Let the server close the database, so that the next run opens
		// it with the next setting.
		time.Sleep(200 * time.Millisecond)
	}
	return res, nil
}

// interrupted is err, or nil when ctx was cancelled: a Ctrl-C between two
// runs (while the next one connects, or its page buffers are set) ends
// the sweep as one during a run does, with the runs completed, not with
// "cannot connect to localhost:3050: interrupted".
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// errWarehouses says a warehouses sweep found more warehouses loaded than
// its step wants.
func errWarehouses(database string, have, want int) error {
	return fmt.Errorf("%s: %s loaded, the sweep step wants %d (a database loaded further before the sweep cannot shrink)", database, units.Count(have, "warehouse"), want)
}
