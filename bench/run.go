package bench

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/parse"
)

// RunOptions are what bench run is asked.
type RunOptions struct {
	Terminals int
	// Warmup and Duration are whole seconds: the per-second buckets and
	// the window share their edges.
	Warmup, Duration time.Duration
	Mode             string // ModeSP (default) or ModeClient
	Home             string // HomeFixed (default) or HomeRandom
	// Retries is how often a transaction that met a conflict is retried
	// (0: never, as oltp-emul); default DefaultRetries when negative.
	Retries int
	// Tool names fbdiag and its version in the result.
	Tool string
	// Sweep, when set, says which setting of a sweep this run measures.
	Sweep *parse.BenchSweep
	// Progress, when set, is called about once a second.
	Progress func(RunProgress)
	// Seed makes the terminals' random inputs repeatable (0: random).
	Seed uint64
}

// The home warehouse policies.
const (
	HomeFixed  = "fixed"  // terminal i works on warehouse i mod W + 1, as the spec's terminals
	HomeRandom = "random" // a warehouse drawn for every transaction (go-tpc's way)
)

// DefaultRetries is how often a conflict is retried by default.
const DefaultRetries = 10

// Isolation is how the terminals' transactions are started, as recorded.
const Isolation = "read committed record_version no wait"

// RunProgress is the state of a run at one moment.
type RunProgress struct {
	Elapsed   time.Duration
	Phase     string
	Committed [nKinds]int64 // since the start
	Conflicts int64
	Errors    int64
	// TpmC is the New-Orders completed (committed or rolled back by
	// design) in the last few seconds, per minute.
	TpmC float64
}

// Result is a run: its record and its seconds.
type Result struct {
	Run     parse.BenchRun
	Seconds []parse.BenchSecond
}

// Run drives the terminals against database for Warmup + Duration and
// returns what was measured. An interrupted run (ctx cancelled) or one
// stopped by a lost connection returns what it measured, marked partial,
// with a nil error for the interruption and the error otherwise.
func Run(ctx context.Context, srv collect.Server, database string, opt RunOptions) (*Result, error) {
	if opt.Terminals < 1 {
		return nil, fmt.Errorf("terminals %d: want 1 or more", opt.Terminals)
	}
	warm, dur := int(opt.Warmup/time.Second), int(opt.Duration/time.Second)
	if warm < 0 || dur < 1 {
		return nil, fmt.Errorf("warm-up %v, duration %v: want whole seconds, a duration of 1s or more", opt.Warmup, opt.Duration)
	}
	if opt.Mode == "" {
		opt.Mode = ModeSP
	}
	if opt.Home == "" {
		opt.Home = HomeFixed
	}
	if opt.Retries < 0 {
		opt.Retries = DefaultRetries
	}
	db, err := srv.Pool(ctx, database, opt.Terminals+1)
	if err != nil {
		return nil, err
	}
	defer closeLost(db)
	warehouses, err := runnable(ctx, srv, db, database)
	if err != nil {
		return nil, err
	}
	res := &Result{Run: parse.BenchRun{
		Format: parse.BenchFormat, Tool: opt.Tool, Database: database, Mode: opt.Mode,
		Terminals: opt.Terminals, Warehouses: warehouses, Home: opt.Home, Isolation: Isolation,
		Retries: opt.Retries, WarmupSeconds: warm, DurationSeconds: dur, Sweep: opt.Sweep,
		Errors: []parse.BenchError{},
	}}
	for k, p := range Mix {
		res.Run.Mix = append(res.Run.Mix, parse.BenchShare{Name: Kind(k).String(), Percent: float64(p)})
	}
	run := &res.Run
	if run.Server.Version, err = srv.Version(ctx); err != nil {
		return nil, err
	}
	// The terminals connect and prepare before the clock starts.
	seed := opt.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	var ex executor
	if opt.Mode == ModeClient {
		ex, err = newClientExecutor(ctx, db)
	} else {
		ex, err = newSPExecutor(ctx, db)
	}
	if err != nil {
		return nil, srv.Fail("prepare the transactions in", database, err)
	}
	defer ex.close()
	freshConnections(db, opt.Terminals+1)
	mon, err := db.Conn(ctx)
	if err != nil {
		return nil, srv.Fail("attach to", database, err)
	}
	defer closeLost(mon)
	if err := readServer(ctx, mon, &run.Server); err != nil {
		return nil, srv.Fail("read the server facts of", database, err)
	}
	var tot totals
	var errs errorLog
	terms := make([]*terminal, opt.Terminals)
	for i := range terms {
		t, err := newTerminal(ctx, db, ex, i, warehouses, opt, seed, &tot, &errs)
		if err != nil {
			for _, t := range terms[:i] {
				t.close()
			}
			return nil, srv.Fail("prepare the transactions in", database, err)
		}
		terms[i] = t
	}
	defer func() {
		for _, t := range terms {
			t.close()
		}
	}()
	readArchitecture(ctx, mon, &run.Server)
	var stop atomic.Bool
	fatal := make(chan error, len(terms))
	t0 := time.Now()
	run.Started = t0.UTC().Truncate(time.Millisecond)
	var wg sync.WaitGroup
	for _, t := range terms {
		t.rec.t0 = t0
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := t.loop(&stop); err != nil {
				fatal <- err
			}
		}()
	}

	// The clock: the window's edges, the facts read there, the progress.
	progress := newProgressTicker(opt.Progress, t0, warm, dur, &tot)
	defer progress.stop()
	windowStart, windowEnd := t0.Add(time.Duration(warm)*time.Second), t0.Add(time.Duration(warm+dur)*time.Second)
	var stopErr error
	interrupted := false
	wait := func(until time.Time) bool {
		timer := time.NewTimer(time.Until(until))
		defer timer.Stop()
		select {
		case <-timer.C:
			return true
		case <-ctx.Done():
			interrupted = true
		case stopErr = <-fatal:
		}
		return false
	}
	run.Window = [2]int{warm, warm}
	var startFacts, endFacts *edgeFacts
	if wait(windowStart) {
		startFacts = readEdge(ctx, mon, &run.Server)
		if wait(windowEnd) {
			run.Window[1] = warm + dur
		} else {
			// Interrupted or stopped: the window runs on to the next whole
			// second, where its end is read, so that the page I/O, size and
			// CPU time cover the seconds counted. Cut at the last whole
			// second, with its end read at the Ctrl-C, they took in up to a
			// second the counts left out (a 4 s window with 4.5 s of I/O).
			cut := min(warm+dur, int(time.Since(t0)/time.Second)+1)
			time.Sleep(time.Until(t0.Add(time.Duration(cut) * time.Second)))
			run.Window[1] = cut
			// A Ctrl-C in the window's last second leaves it whole: only
			// the drain is cut, and the run is no partial one.
			interrupted = interrupted && cut < warm+dur
		}
		endFacts = readEdge(context.WithoutCancel(ctx), mon, nil)
	}
	stop.Store(true)
	wg.Wait()
	if stopErr == nil {
		select {
		case stopErr = <-fatal:
		default:
		}
	}
	progress.stop()
	last := int(time.Since(t0)/time.Second) + 1
	recs := make([]*recorder, len(terms))
	for i, t := range terms {
		recs[i] = t.rec
		last = max(last, len(t.rec.seconds))
	}
	res.Seconds = merge(recs, last, warm, run.Window[1])
	run.Errors = errs.list()
	setEdges(run, startFacts, endFacts)
	switch {
	case stopErr != nil:
		run.Partial, run.Stopped = true, "error: "+stopErr.Error()
		return res, srv.Fail("run the workload on", database, stopErr)
	case interrupted:
		run.Partial, run.Stopped = true, "interrupted"
	}
	return res, nil
}

// terminal is one connection running transactions in a closed loop.
type terminal struct {
	db         *sql.DB
	conn       *sql.Conn
	exec       executor
	r          *rand.Rand // the inputs
	jitter     *rand.Rand // the back-off: a retry does not move the inputs of what follows
	deck       *deck
	home       int // fixed home warehouse
	district   int // Stock-Level's fixed district
	warehouses int
	random     bool
	retries    int
	rec        *recorder
	errs       *errorLog
	ctx        context.Context // statements: not cancelled by Ctrl-C, so that what runs ends
}

// opTimeout bounds one transaction's statements.
const opTimeout = 2 * time.Minute

func newTerminal(ctx context.Context, db *sql.DB, ex executor, i, warehouses int, opt RunOptions, seed uint64, tot *totals, errs *errorLog) (*terminal, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	t := seededTerminal(i, warehouses, opt, seed)
	t.db, t.conn, t.exec, t.ctx = db, conn, ex, context.WithoutCancel(ctx)
	t.rec, t.errs = &recorder{totals: tot}, errs
	return t, nil
}

// seededTerminal is terminal i's inputs: its home, its deck and its
// generators, drawn from seed, so that a seeded run's terminal i deals
// the same operations with the same inputs every time.
func seededTerminal(i, warehouses int, opt RunOptions, seed uint64) *terminal {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	return &terminal{
		r: r, jitter: rand.New(rand.NewPCG(seed, uint64(i)|1<<63)), deck: newDeck(r),
		home: i%warehouses + 1, district: (i/warehouses)%DistrictsPerW + 1,
		warehouses: warehouses, random: opt.Home == HomeRandom, retries: opt.Retries,
	}
}

func (t *terminal) close() { closeLost(t.conn) }

// loop runs transactions until stop; an error that leaves the connection
// unusable ends it and is returned.
func (t *terminal) loop(stop *atomic.Bool) error {
	for !stop.Load() {
		if err := t.operation(t.deck.deal(), stop); err != nil {
			return err
		}
	}
	return nil
}

// operation runs one business operation to its end: committed, rolled
// back, given up after the retries, or failed.
func (t *terminal) operation(k Kind, stop *atomic.Bool) error {
	work, readOnly, _ := t.draw(k)
	return t.runOperation(k, work, readOnly, stop)
}

// runOperation runs work, an operation of kind k, until it ends.
func (t *terminal) runOperation(k Kind, work func(context.Context, *sql.Tx) error, readOnly bool, stop *atomic.Bool) error {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		err := t.attempt(work, readOnly)
		now := time.Now()
		commitFailed := err != nil && errors.As(err, new(commitError))
		switch {
		case err == nil:
			t.rec.done(k, committed, start, now)
			return nil
		case errors.Is(err, errRollback):
			t.rec.done(k, rolledBack, start, now)
			return nil
		case isConflict(err) && !commitFailed:
			t.rec.conflict(k, now)
			if attempt >= t.retries || stop.Load() {
				t.rec.done(k, gaveUp, start, now)
				return nil
			}
			time.Sleep(t.backoff(attempt))
		default:
			t.rec.done(k, failed, start, now)
			t.errs.add(k, oneLine(err.Error()))
			if collect.ConnectionLost(err) {
				return err
			}
			if commitFailed {
				return t.reconnect()
			}
			return nil
		}
	}
}

// draw draws the inputs of an operation of kind k and returns its work;
// no is a New-Order's inputs (nil for the other kinds).
func (t *terminal) draw(k Kind) (work func(ctx context.Context, tx *sql.Tx) error, readOnly bool, no *newOrderIn) {
	w := t.home
	if t.random {
		w = between(t.r, 1, t.warehouses)
	}
	switch k {
	case NewOrder:
		in := genNewOrder(t.r, w, t.warehouses)
		no = &in
		work = func(ctx context.Context, tx *sql.Tx) error { return t.exec.newOrder(ctx, tx, in) }
	case Payment:
		in := genPayment(t.r, w, t.warehouses)
		work = func(ctx context.Context, tx *sql.Tx) error { return t.exec.payment(ctx, tx, in) }
	case OrderStatus:
		c := genCustomer(t.r, w, between(t.r, 1, DistrictsPerW))
		work = func(ctx context.Context, tx *sql.Tx) error { return t.exec.orderStatus(ctx, tx, c) }
		readOnly = true
	case Delivery:
		carrier := between(t.r, 1, 10)
		work = func(ctx context.Context, tx *sql.Tx) error { return t.exec.delivery(ctx, tx, w, carrier) }
	case StockLevel:
		threshold := between(t.r, 10, 20)
		work = func(ctx context.Context, tx *sql.Tx) error {
			return t.exec.stockLevel(ctx, tx, w, t.district, threshold)
		}
		readOnly = true
	}
	return work, readOnly, no
}

// backoff is the wait before retry attempt+1: 2 ms doubled at every
// attempt up to 100 ms, drawn uniformly from half to one and a half of
// it, so that the terminals that met on a row do not meet again.
func (t *terminal) backoff(attempt int) time.Duration {
	d := min(2*time.Millisecond<<min(attempt, 6), 100*time.Millisecond)
	return d/2 + time.Duration(t.jitter.Int64N(int64(d)))
}

// commitError is a failed commit. It is never retried, whatever it
// says: the work is done and the commit was sent, so whether the server
// committed may be unknown, and a retry could commit the operation twice
// (a New-Order the terminal counts once and the server twice).
type commitError struct{ err error }

func (e commitError) Error() string { return "commit: " + e.err.Error() }
func (e commitError) Unwrap() error { return e.err }

// reconnect replaces the terminal's connection after a failed commit.
// Firebird keeps a transaction whose commit failed active, with its
// changes and their locks, until it is rolled back, and database/sql
// cannot roll back a transaction it tried to commit: the connection is
// discarded (a detaching connection's transactions are rolled back), and
// the terminal goes on with a new one.
func (t *terminal) reconnect() error {
	t.conn.Raw(func(any) error { return driver.ErrBadConn })
	closeLost(t.conn)
	ctx, cancel := context.WithTimeout(t.ctx, opTimeout)
	defer cancel()
	conn, err := t.db.Conn(ctx)
	if err != nil {
		return err
	}
	t.conn = conn
	return nil
}

// attempt runs work in one READ COMMITTED NO WAIT transaction and commits
// it, or rolls it back on any error.
func (t *terminal) attempt(work func(context.Context, *sql.Tx) error, readOnly bool) error {
	ctx, cancel := context.WithTimeout(t.ctx, opTimeout)
	defer cancel()
	tx, err := t.conn.BeginTx(ctx, &sql.TxOptions{Isolation: collect.ReadCommittedNoWait, ReadOnly: readOnly})
	if err != nil {
		return err
	}
	if err := work(ctx, tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return commitError{err}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// edgeFacts are read at an edge of the window.
type edgeFacts struct {
	pages, pageSize int64
	io              parse.BenchIO
	ok              bool
	user, system    float64
	rusageOK        bool
	load            float64
	loadOK          bool
	at              time.Time
}

// freshConnections closes the pool's idle connections, keeping room for
// idle ones: those the setup used (the schema and load checks, the
// statements prepared on the pool) each hold a transaction the driver
// began for statements outside an explicit one, which stays active until
// the connection closes (its autocommit commits with COMMIT RETAINING; a
// BeginTx on the connection starts another without ending it). On the
// terminals' or the monitor's connections such a transaction held the
// database's oldest active and oldest snapshot transaction from before
// the warm-up to the end of the run: no garbage was collected during it
// (MON$TRANSACTIONS: two of fbdiag's transactions started before the
// run, OAT and OST pinned at the first while Next went on by 6,000;
// WAREHOUSE's one row 1,504 versions long after 12 s, 5 since). The run's
// connections are new ones, whose statements all run in transactions the
// run begins and ends; the prepared statements are prepared again on
// them, in those transactions (tx.StmtContext).
func freshConnections(db *sql.DB, idle int) {
	db.SetMaxIdleConns(0)
	db.SetMaxIdleConns(idle)
}

// readEdge reads the database's size and I/O, fbdiag's CPU time and the
// load average; server, when given, gets the page buffers and write mode
// the database runs with and the architecture.
func readEdge(ctx context.Context, conn *sql.Conn, server *parse.BenchServer) *edgeFacts {
	f := &edgeFacts{at: time.Now()}
	f.user, f.system, f.rusageOK = cpuTimes()
	f.load, f.loadOK = loadAverage()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return f
	}
	defer tx.Rollback()
	var buffers int64
	var forced int
	if err := tx.QueryRowContext(ctx, "SELECT MON$PAGE_SIZE, MON$PAGES, MON$PAGE_BUFFERS, MON$FORCED_WRITES FROM MON$DATABASE").
		Scan(&f.pageSize, &f.pages, &buffers, &forced); err != nil {
		return f
	}
	if err := tx.QueryRowContext(ctx, `SELECT io.MON$PAGE_READS, io.MON$PAGE_WRITES, io.MON$PAGE_FETCHES, io.MON$PAGE_MARKS
FROM MON$IO_STATS io JOIN MON$DATABASE d ON d.MON$STAT_ID = io.MON$STAT_ID WHERE io.MON$STAT_GROUP = 0`).
		Scan(&f.io.PageReads, &f.io.PageWrites, &f.io.PageFetches, &f.io.PageMarks); err != nil {
		return f
	}
	f.ok = true
	if server != nil {
		server.PageBuffers, server.ForcedWrites = buffers, forced != 0
	}
	return f
}

// readArchitecture tells, on Firebird 3 (no RDB$CONFIG), the process model
// from the server processes of fbdiag's attachments, once the terminals
// are attached and before the clock starts: read at the window's start,
// a run interrupted in its warm-up had none ("LI-V3.0.11 (3.0.11),").
func readArchitecture(ctx context.Context, conn *sql.Conn, server *parse.BenchServer) {
	if server.ArchitectureSource != "" {
		return
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return
	}
	defer tx.Rollback()
	var pids int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT MON$SERVER_PID) FROM MON$ATTACHMENTS
WHERE MON$REMOTE_PID = ? AND MON$SYSTEM_FLAG = 0`, os.Getpid()).Scan(&pids); err == nil {
		server.ArchitectureSource = "server processes"
		server.Architecture = "Super or SuperClassic"
		if pids > 1 {
			server.Architecture = "Classic"
		}
	}
}

// setEdges puts the facts of the window's edges in the run.
func setEdges(run *parse.BenchRun, start, end *edgeFacts) {
	run.Client.CPUs = runtime.NumCPU()
	for i, f := range []*edgeFacts{start, end} {
		if f == nil {
			continue
		}
		if f.ok {
			size, io := f.pages*f.pageSize, f.io
			run.Size[i], run.IO[i] = &size, &io
		}
		if f.loadOK {
			l := f.load
			run.Client.LoadAverage[i] = &l
		}
	}
	if start != nil && end != nil && start.rusageOK && end.rusageOK {
		u, s := end.user-start.user, end.system-start.system
		run.Client.UserSeconds, run.Client.SystemSeconds = &u, &s
		if wall := end.at.Sub(start.at).Seconds(); wall > 0 {
			share := (u + s) / wall
			run.Client.CPUShare = &share
		}
	}
}

// readServer reads the engine version, the page size, the ODS and, from
// Firebird 4 on, the server mode.
func readServer(ctx context.Context, conn *sql.Conn, s *parse.BenchServer) error {
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var engine string
	var odsMajor, odsMinor, forced int
	// The write mode too (the window's start reads it again): a run
	// interrupted in its warm-up said "forced writes off" of a database
	// with them on.
	if err := tx.QueryRowContext(ctx, `SELECT RDB$GET_CONTEXT('SYSTEM', 'ENGINE_VERSION'), MON$PAGE_SIZE, MON$PAGE_BUFFERS,
  MON$ODS_MAJOR, MON$ODS_MINOR, MON$FORCED_WRITES FROM MON$DATABASE`).Scan(&engine, &s.PageSize, &s.PageBuffers, &odsMajor, &odsMinor, &forced); err != nil {
		return err
	}
	s.ForcedWrites = forced != 0
	s.Engine = strings.TrimSpace(engine)
	s.ODS = strconv.Itoa(odsMajor) + "." + strconv.Itoa(odsMinor)
	major, _, _ := strings.Cut(s.Engine, ".")
	if n, err := strconv.Atoi(major); err == nil && n >= 4 {
		var mode sql.NullString
		if err := tx.QueryRowContext(ctx, "SELECT RDB$CONFIG_VALUE FROM RDB$CONFIG WHERE RDB$CONFIG_NAME = 'ServerMode'").Scan(&mode); err == nil && mode.Valid {
			s.Architecture, s.ArchitectureSource = strings.TrimSpace(mode.String), "rdb$config"
		}
	}
	return nil
}

// progressTicker calls the progress function once a second.
type progressTicker struct {
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

func newProgressTicker(f func(RunProgress), t0 time.Time, warm, dur int, tot *totals) *progressTicker {
	p := &progressTicker{done: make(chan struct{})}
	if f == nil {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tk := time.NewTicker(time.Second)
		defer tk.Stop()
		const keep = 5
		var hist []int64 // New-Orders completed at the last ticks
		for {
			select {
			case <-p.done:
				return
			case now := <-tk.C:
				el := now.Sub(t0)
				pr := RunProgress{Elapsed: el, Phase: parse.PhaseWarmup, Conflicts: tot.conflicts.Load(), Errors: tot.errors.Load()}
				switch s := int(el / time.Second); {
				case s >= warm+dur:
					pr.Phase = parse.PhaseDrain
				case s >= warm:
					pr.Phase = parse.PhaseWindow
				}
				for k := range pr.Committed {
					pr.Committed[k] = tot.committed[k].Load()
				}
				hist = append(hist, tot.newOrdersDone())
				if len(hist) > keep+1 {
					hist = hist[1:]
				}
				if n := len(hist) - 1; n > 0 {
					pr.TpmC = float64(hist[n]-hist[0]) * 60 / float64(n)
				}
				f(pr)
			}
		}
	}()
	return p
}

func (p *progressTicker) stop() {
	p.once.Do(func() { close(p.done) })
	p.wg.Wait()
}

// runnable checks that bench init set database up (db is attached to it)
// and gives its complete warehouses.
func runnable(ctx context.Context, srv collect.Server, db *sql.DB, database string) (int, error) {
	ok, err := hasSchema(ctx, db)
	if err != nil {
		return 0, srv.Fail("read the schema of", database, err)
	}
	if !ok {
		// A database of the user's own: "run fbdiag bench init first" sent
		// the user to a command that refuses it.
		if err := refuseTables(ctx, srv, db, database); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%s: %w", database, ErrNoSchema)
	}
	warehouses, err := completeWarehouses(ctx, db)
	if err != nil {
		return 0, srv.Fail("read the load state of", database, err)
	}
	if warehouses == 0 {
		return 0, fmt.Errorf("%s: no complete warehouse: run fbdiag bench init", database)
	}
	return warehouses, nil
}
