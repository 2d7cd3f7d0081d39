package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/units"
)

// InitOptions are what bench init is asked.
type InitOptions struct {
	// Warehouses is the size wanted: warehouses 1..Warehouses loaded.
	Warehouses int
	// Jobs is how many connections load at once, one warehouse each
	// (default: 2, capped at the warehouses to load).
	Jobs int
	// ForcedWrites, when set, switches a database fbdiag creates to
	// synchronous (true) or asynchronous (false) writes before loading.
	ForcedWrites *bool
	// Progress, when set, is called about once a second while loading.
	Progress func(LoadProgress)
	// Tick is the progress interval (default 1 s).
	Tick time.Duration
}

// DefaultJobs is the default number of loading connections: the server
// does the work, and two attachments kept a 2-core test server busy.
const DefaultJobs = 2

// LoadProgress is the state of a load at one moment.
type LoadProgress struct {
	Elapsed    time.Duration
	PartsDone  int
	PartsTotal int
	Rows       int64 // rows committed by this load so far
	Bytes      int64 // database growth so far (allocated pages × page size)
	Loading    []int // warehouses being loaded now (0: the items)
}

// LoadResult is bench init's result; its JSON names are the contract in
// docs/bench-json.md.
type LoadResult struct {
	Database      string   `json:"database"`
	Created       bool     `json:"created"`
	Warehouses    int      `json:"warehouses"` // complete warehouses in the database
	Loaded        []int    `json:"loaded"`     // warehouses this call loaded (in part or whole)
	Parts         int      `json:"parts"`      // procedure calls this call made
	Jobs          int      `json:"jobs"`
	Rows          int64    `json:"rows"`
	Seconds       float64  `json:"seconds"`
	PageSize      int64    `json:"page_size"`
	SizeBytes     [2]int64 `json:"size_bytes"` // before and after
	RowsPerSecond *float64 `json:"rows_per_second"`
	MBPerSecond   *float64 `json:"mb_per_second"` // database growth, MiB per second
	// Counts are the rows of warehouses CountsFrom..CountsTo (ITEM
	// whole); CountsChecked says whether they were held against the
	// spec (warehouses loaded by this call).
	CountsFrom    int          `json:"counts_from"`
	CountsTo      int          `json:"counts_to"`
	CountsChecked bool         `json:"counts_checked"`
	Counts        []TableCount `json:"counts"`
	Checks        []Check      `json:"checks"`
	Consistent    bool         `json:"consistent"`
	History       []LoadStep   `json:"history"`
}

// TableCount is one table's rows against what the spec gives for the
// database's warehouses: Expected exactly, or ExpectedMin..ExpectedMax
// for ORDER_LINE (5 to 15 lines an order).
type TableCount struct {
	Table       string `json:"table"`
	Rows        int64  `json:"rows"`
	ExpectedMin int64  `json:"expected_min"`
	ExpectedMax int64  `json:"expected_max"`
	OK          bool   `json:"ok"`
}

// LoadStep is one bench init of the database (BENCH_LOADS): its size after
// the step against the time spent loading up to it, the articles' load
// speed.
type LoadStep struct {
	Started    time.Time `json:"started"`
	Warehouses int       `json:"warehouses"`
	Parts      int       `json:"parts"`
	Rows       int64     `json:"rows"`
	Seconds    float64   `json:"seconds"`
	BytesFrom  int64     `json:"bytes_from"`
	BytesTo    int64     `json:"bytes_to"`
	Jobs       int       `json:"jobs"`
}

// part is one loader call: items part P (W 0), or district P of W.
type part struct{ w, p int }

func (pt part) call() string {
	if pt.w == 0 {
		return fmt.Sprintf("EXECUTE PROCEDURE BENCH_LOAD_ITEMS(%d)", pt.p)
	}
	return fmt.Sprintf("EXECUTE PROCEDURE BENCH_LOAD_DISTRICT(%d, %d)", pt.w, pt.p)
}

func (pt part) String() string {
	if pt.w == 0 {
		return fmt.Sprintf("items part %d", pt.p)
	}
	return fmt.Sprintf("warehouse %d district %d", pt.w, pt.p)
}

// Init creates database if absent, puts the schema and procedures in it
// and loads the warehouses 1..Warehouses that are not loaded yet.
func Init(ctx context.Context, srv collect.Server, database string, opt InitOptions) (*LoadResult, error) {
	if opt.Warehouses < 1 || opt.Warehouses > 9999 {
		return nil, fmt.Errorf("warehouses %d: want 1 to 9999", opt.Warehouses)
	}
	res := &LoadResult{Database: database, Counts: []TableCount{}, Checks: []Check{}, Loaded: []int{}}
	created, err := srv.CreateEmpty(ctx, database)
	if err != nil {
		return nil, err
	}
	res.Created = created
	if created && opt.ForcedWrites != nil {
		if err := srv.SetForcedWrites(ctx, database, *opt.ForcedWrites); err != nil {
			return nil, err
		}
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = DefaultJobs
	}
	db, err := srv.Pool(ctx, database, jobs+1)
	if err != nil {
		return nil, err
	}
	defer closeLost(db)
	if !created {
		if err := refuseForeign(ctx, srv, db, database); err != nil {
			return nil, err
		}
	}
	if err := Prepare(ctx, srv, db, database); err != nil {
		return nil, err
	}
	done, err := loadedParts(ctx, db)
	if err != nil {
		return nil, srv.Fail("read the load state of", database, err)
	}
	var todo [][]part // one list per job unit: an items part, or a warehouse's districts
	for p := 1; p <= itemParts; p++ {
		if !done[part{0, p}] {
			todo = append(todo, []part{{0, p}})
		}
	}
	for w := 1; w <= opt.Warehouses; w++ {
		var ps []part
		for d := 1; d <= DistrictsPerW; d++ {
			if !done[part{w, d}] {
				ps = append(ps, part{w, d})
			}
		}
		if len(ps) > 0 {
			todo = append(todo, ps)
			res.Loaded = append(res.Loaded, w)
		}
	}
	total := 0
	for _, u := range todo {
		total += len(u)
	}
	jobs = min(jobs, max(1, len(todo)))
	res.Jobs = jobs
	pageSize, pagesBefore, err := dbSize(ctx, db)
	if err != nil {
		return nil, srv.Fail("read the size of", database, err)
	}
	res.PageSize = pageSize
	res.SizeBytes[0] = pagesBefore * pageSize
	start := time.Now()
	if total > 0 {
		if err := load(ctx, srv, db, database, todo, total, jobs, res.SizeBytes[0], opt); err != nil {
			return nil, logPartialLoad(ctx, db, todo, start, opt.Warehouses, res.SizeBytes[0], pageSize, jobs, err)
		}
	}
	res.Seconds = time.Since(start).Seconds()
	_, pagesAfter, err := dbSize(ctx, db)
	if err != nil {
		return nil, srv.Fail("read the size of", database, err)
	}
	res.SizeBytes[1] = pagesAfter * pageSize
	res.Parts = total
	if total > 0 {
		rows, err := rowsOfParts(ctx, db, todo)
		if err != nil {
			return nil, srv.Fail("read the load state of", database, err)
		}
		res.Rows = rows
		if res.Seconds > 0 {
			rps := float64(rows) / res.Seconds
			mbs := float64(res.SizeBytes[1]-res.SizeBytes[0]) / (1 << 20) / res.Seconds
			res.RowsPerSecond, res.MBPerSecond = &rps, &mbs
		}
		if err := execTx(ctx, db, `INSERT INTO BENCH_LOADS (STARTED, SECONDS, WAREHOUSES, PARTS, ROWS_, BYTES_FROM, BYTES_TO, JOBS)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, start.UTC(), res.Seconds, opt.Warehouses, total, res.Rows, res.SizeBytes[0], res.SizeBytes[1], jobs); err != nil {
			return nil, srv.Fail("record the load in", database, err)
		}
	}
	if res.Warehouses, err = completeWarehouses(ctx, db); err != nil {
		return nil, srv.Fail("read the load state of", database, err)
	}
	if res.History, err = loadHistory(ctx, db); err != nil {
		return nil, srv.Fail("read the load history of", database, err)
	}
	// The rows are counted and the conditions checked on the warehouses
	// this call loaded, or on every warehouse when it loaded none. Runs
	// add orders, so the counts and condition 11 (orders less new orders
	// is 2100) hold only for warehouses no run has used: they decide
	// consistency only for warehouses loaded now.
	lo, hi, fresh := 1, res.Warehouses, false
	if len(res.Loaded) > 0 {
		lo, hi, fresh = slices.Min(res.Loaded), slices.Max(res.Loaded), true
	}
	res.CountsFrom, res.CountsTo, res.CountsChecked = lo, hi, fresh
	if res.Counts, err = countRows(ctx, db, lo, hi); err != nil {
		return nil, srv.Fail("count the rows of", database, err)
	}
	if res.Checks, err = Consistency(ctx, db, lo, hi, fresh); err != nil {
		return nil, srv.Fail("check the consistency of", database, err)
	}
	res.Consistent = true
	for _, c := range res.Checks {
		res.Consistent = res.Consistent && c.Passed
	}
	for _, c := range res.Counts {
		res.Consistent = res.Consistent && (c.OK || !fresh)
	}
	return res, nil
}

// refuseForeign stops init from putting its tables and procedures into a
// database that holds tables of its own and none of bench's: a user's
// database given by mistake is left as it was.
func refuseForeign(ctx context.Context, srv collect.Server, db *sql.DB, database string) error {
	ok, err := hasSchema(ctx, db)
	if err != nil {
		return srv.Fail("read the schema of", database, err)
	}
	if ok {
		return nil
	}
	return refuseTables(ctx, srv, db, database)
}

// refuseTables fails with ErrForeign when a database without bench's
// tables holds objects of its own: tables or views, and the procedures,
// functions, triggers, generators and exceptions a database can hold
// before its tables (a schema script run in parts), which init's script
// would have put its tables beside.
func refuseTables(ctx context.Context, srv collect.Server, db *sql.DB, database string) error {
	var found []string
	for _, k := range userObjects {
		var n int
		q := "SELECT COUNT(*) FROM " + k.table + " WHERE COALESCE(RDB$SYSTEM_FLAG, 0) = 0"
		if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return srv.Fail("read the schema of", database, err)
		}
		if n > 0 {
			found = append(found, units.Count(n, k.one))
		}
	}
	if len(found) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %w (it holds %s of its own)", database, ErrForeign, units.List(found))
}

// userObjects are the catalogue tables refuseTables reads, with the
// words for one of their rows (units.Count makes the plural).
var userObjects = []struct{ table, one string }{
	{"RDB$RELATIONS", "table or view"},
	{"RDB$PROCEDURES", "procedure"},
	{"RDB$FUNCTIONS", "function"},
	{"RDB$TRIGGERS", "trigger"},
	{"RDB$GENERATORS", "generator"},
	{"RDB$EXCEPTIONS", "exception"},
}

// Prepare puts the schema (once) and the procedures (every time) in db.
func Prepare(ctx context.Context, srv collect.Server, db *sql.DB, database string) error {
	ok, err := hasSchema(ctx, db)
	if err != nil {
		return srv.Fail("read the schema of", database, err)
	}
	if !ok {
		if err := srv.RunScript(ctx, db, database, strings.NewReader(schemaSQL)); err != nil {
			return err
		}
	}
	if err := srv.RunScript(ctx, db, database, strings.NewReader(loaderScript())); err != nil {
		return err
	}
	return srv.RunScript(ctx, db, database, strings.NewReader(procsSQL))
}

// load runs the parts on jobs connections. A unit (an items part or a
// warehouse) goes to one connection; the first failure stops the others
// after their current part.
func load(ctx context.Context, srv collect.Server, db *sql.DB, database string, todo [][]part, total, jobs int, bytesBefore int64, opt InitOptions) error {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	units := make(chan []part)
	var (
		rows     atomic.Int64
		partsOK  atomic.Int64
		mu       sync.Mutex
		firstErr error
		loading  = map[int]int{}
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.Conn(lctx)
			if err != nil {
				fail(srv.Fail("attach to", database, err))
				return
			}
			defer closeLost(conn)
			for u := range units {
				mu.Lock()
				loading[u[0].w]++
				mu.Unlock()
				for _, pt := range u {
					if lctx.Err() != nil {
						break
					}
					n, err := loadPart(lctx, conn, pt)
					if err != nil {
						fail(srv.Fail("load "+pt.String()+" into", database, err))
						break
					}
					rows.Add(n)
					partsOK.Add(1)
				}
				mu.Lock()
				if loading[u[0].w]--; loading[u[0].w] == 0 {
					delete(loading, u[0].w)
				}
				mu.Unlock()
			}
		}()
	}
	stopTick := make(chan struct{})
	tickDone := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(tickDone)
		if opt.Progress == nil {
			return
		}
		tick := opt.Tick
		if tick <= 0 {
			tick = time.Second
		}
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-stopTick:
				return
			case <-t.C:
				pr := LoadProgress{Elapsed: time.Since(start), PartsDone: int(partsOK.Load()), PartsTotal: total, Rows: rows.Load()}
				if ps, pages, err := dbSize(lctx, db); err == nil {
					pr.Bytes = ps*pages - bytesBefore
				}
				mu.Lock()
				for w := range loading {
					pr.Loading = append(pr.Loading, w)
				}
				mu.Unlock()
				slices.Sort(pr.Loading)
				opt.Progress(pr)
			}
		}
	}()
feed:
	for _, u := range todo {
		select {
		case units <- u:
		case <-lctx.Done():
			break feed
		}
	}
	close(units)
	wg.Wait()
	close(stopTick)
	<-tickDone
	// Interrupted whether or not a part was cut short by it (a Ctrl-C
	// between two parts said "context canceled").
	if ctx.Err() != nil {
		return srv.Fail("load", database, ctx.Err())
	}
	return firstErr
}

// logPartialLoad records in BENCH_LOADS what a load stopped by err (a
// Ctrl-C, a failed part) committed, and returns err with the count of the
// parts kept. Unrecorded, the time it took was in no step of the load
// history: the next init's step said the whole size had loaded in its
// own time (a warehouse whose items an interrupted init had loaded in
// 12 s read as 113.8 MB in 21.9 s, 5.2 MB/s, where it took 34 s).
func logPartialLoad(ctx context.Context, db *sql.DB, todo [][]part, start time.Time, warehouses int, bytesFrom, pageSize int64, jobs int, err error) error {
	secs := time.Since(start).Seconds()
	// The database is written whatever stopped the load: a Ctrl-C has
	// cancelled ctx, and the parts it kept took this time.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitGrace)
	defer cancel()
	done, derr := loadedPartRows(ctx, db)
	if derr != nil {
		return err
	}
	parts, total := 0, 0
	var rows int64
	for _, u := range todo {
		for _, pt := range u {
			total++
			if n, ok := done[pt]; ok {
				parts++
				rows += n
			}
		}
	}
	if parts == 0 {
		return err
	}
	bytesTo := bytesFrom
	if _, pages, serr := dbSize(ctx, db); serr == nil {
		bytesTo = pages * pageSize
	}
	if execTx(ctx, db, `INSERT INTO BENCH_LOADS (STARTED, SECONDS, WAREHOUSES, PARTS, ROWS_, BYTES_FROM, BYTES_TO, JOBS)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, start.UTC(), secs, warehouses, parts, rows, bytesFrom, bytesTo, jobs) != nil {
		return err
	}
	return fmt.Errorf("%w (%d of %d parts committed, %s, kept and logged: bench init again loads the rest)", err, parts, total, units.Count(rows, "row"))
}

// loadPart makes one loader call in its own transaction. A cancelled ctx
// (Ctrl-C, another job's failure) stops the call, not the commit that
// follows it: the driver gives up on a commit whose context ends before
// the server's answer, and the server commits all the same, after the
// load has read which parts it kept (an interrupted init logged 1 part
// of the 2 it had committed). Once ctx ends the commit has commitGrace.
func loadPart(ctx context.Context, conn *sql.Conn, pt part) (int64, error) {
	tctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(commitGrace, stop) })()
	tx, err := conn.BeginTx(tctx, nil)
	if err != nil {
		return 0, err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, pt.call()).Scan(&n); err != nil {
		tx.Rollback()
		return 0, err
	}
	partCalled()
	return n, tx.Commit()
}

// commitGrace is how long a part's commit may take once the load was
// cancelled: as long as logPartialLoad waits to log the parts kept.
const commitGrace = 30 * time.Second

// partCalled runs between a part's call and its commit (tests cancel
// the load there).
var partCalled = func() {}

// execTx runs one statement in a transaction of its own. The driver's
// autocommit keeps a connection's transaction, which after a read-only
// BeginTx on that connection is read-only (firebirdsql v0.9.23): every
// write of bench goes through an explicit transaction.
func execTx(ctx context.Context, db *sql.DB, query string, args ...any) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, query, args...); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// loadedParts reads BENCH_PART.
func loadedParts(ctx context.Context, db *sql.DB) (map[part]bool, error) {
	rows, err := db.QueryContext(ctx, "SELECT W_ID, PART FROM BENCH_PART")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[part]bool{}
	for rows.Next() {
		var pt part
		if err := rows.Scan(&pt.w, &pt.p); err != nil {
			return nil, err
		}
		out[pt] = true
	}
	return out, rows.Err()
}

// rowsOfParts sums the rows BENCH_PART records for the parts loaded.
func rowsOfParts(ctx context.Context, db *sql.DB, todo [][]part) (int64, error) {
	done, err := loadedPartRows(ctx, db)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, u := range todo {
		for _, pt := range u {
			n += done[pt]
		}
	}
	return n, nil
}

func loadedPartRows(ctx context.Context, db *sql.DB) (map[part]int64, error) {
	rows, err := db.QueryContext(ctx, "SELECT W_ID, PART, ROWS_ FROM BENCH_PART")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[part]int64{}
	for rows.Next() {
		var pt part
		var n int64
		if err := rows.Scan(&pt.w, &pt.p, &n); err != nil {
			return nil, err
		}
		out[pt] = n
	}
	return out, rows.Err()
}

// completeWarehouses is the number of warehouses 1..n all of whose
// districts are loaded, with the items.
func completeWarehouses(ctx context.Context, db *sql.DB) (int, error) {
	done, err := loadedParts(ctx, db)
	if err != nil {
		return 0, err
	}
	for p := 1; p <= itemParts; p++ {
		if !done[part{0, p}] {
			return 0, nil
		}
	}
	w := 0
	for {
		for d := 1; d <= DistrictsPerW; d++ {
			if !done[part{w + 1, d}] {
				return w, nil
			}
		}
		w++
	}
}

// Warehouses reads how many complete warehouses database holds.
func Warehouses(ctx context.Context, db *sql.DB) (int, error) {
	return completeWarehouses(ctx, db)
}

// dbSize reads the page size and allocated pages (MON$DATABASE) in a
// transaction of its own: the monitoring tables are a snapshot per
// transaction.
func dbSize(ctx context.Context, db *sql.DB) (pageSize, pages int64, err error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	err = tx.QueryRowContext(ctx, "SELECT MON$PAGE_SIZE, MON$PAGES FROM MON$DATABASE").Scan(&pageSize, &pages)
	return pageSize, pages, err
}

func loadHistory(ctx context.Context, db *sql.DB) ([]LoadStep, error) {
	rows, err := db.QueryContext(ctx, `SELECT STARTED, SECONDS, WAREHOUSES, PARTS, ROWS_, BYTES_FROM, BYTES_TO, JOBS
FROM BENCH_LOADS ORDER BY STARTED`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []LoadStep{}
	for rows.Next() {
		var s LoadStep
		if err := rows.Scan(&s.Started, &s.Seconds, &s.Warehouses, &s.Parts, &s.Rows, &s.BytesFrom, &s.BytesTo, &s.Jobs); err != nil {
			return nil, err
		}
		s.Started = time.Date(s.Started.Year(), s.Started.Month(), s.Started.Day(), s.Started.Hour(),
			s.Started.Minute(), s.Started.Second(), s.Started.Nanosecond(), time.UTC)
		out = append(out, s)
	}
	return out, rows.Err()
}

// wColumn is each table's warehouse column.
var wColumn = map[string]string{"WAREHOUSE": "W_ID", "DISTRICT": "D_W_ID", "CUSTOMER": "C_W_ID",
	"HISTORY": "H_W_ID", "NEW_ORDER": "NO_W_ID", "ORDERS": "O_W_ID", "ORDER_LINE": "OL_W_ID", "STOCK": "S_W_ID"}

// countRows counts the rows of warehouses lo..hi in every table (ITEM
// whole) and compares them with the spec.
func countRows(ctx context.Context, db *sql.DB, lo, hi int) ([]TableCount, error) {
	W := int64(hi - lo + 1)
	perW := map[string][2]int64{
		"WAREHOUSE":  {1, 1},
		"DISTRICT":   {DistrictsPerW, DistrictsPerW},
		"CUSTOMER":   {DistrictsPerW * CustomersPerD, DistrictsPerW * CustomersPerD},
		"HISTORY":    {DistrictsPerW * CustomersPerD, DistrictsPerW * CustomersPerD},
		"NEW_ORDER":  {DistrictsPerW * NewOrdersPerD, DistrictsPerW * NewOrdersPerD},
		"ORDERS":     {DistrictsPerW * OrdersPerD, DistrictsPerW * OrdersPerD},
		"ORDER_LINE": {DistrictsPerW * OrdersPerD * minLinesPerOrder, DistrictsPerW * OrdersPerD * maxLinesPerOrder},
		"STOCK":      {StockPerW, StockPerW},
	}
	out := make([]TableCount, 0, len(Tables))
	for _, t := range Tables {
		var n int64
		var err error
		if t == "ITEM" {
			err = db.QueryRowContext(ctx, "SELECT COUNT(*) FROM ITEM").Scan(&n)
		} else {
			err = db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+t+" WHERE "+wColumn[t]+" BETWEEN ? AND ?", lo, hi).Scan(&n)
		}
		if err != nil {
			return nil, err
		}
		c := TableCount{Table: t, Rows: n}
		if t == "ITEM" {
			c.ExpectedMin, c.ExpectedMax = Items, Items
		} else {
			c.ExpectedMin, c.ExpectedMax = perW[t][0]*W, perW[t][1]*W
		}
		c.OK = n >= c.ExpectedMin && n <= c.ExpectedMax
		out = append(out, c)
	}
	return out, nil
}

// ErrForeign refuses a database that is not fbdiag bench's.
var ErrForeign = errors.New("not a fbdiag bench database: bench init loads a new or empty database, or one it set up")

// ErrNoSchema says a database has no bench tables.
var ErrNoSchema = errors.New("no fbdiag bench tables: run fbdiag bench init first")
