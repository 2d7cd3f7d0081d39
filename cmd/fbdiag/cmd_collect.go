package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/collect"
	"github.com/fbdiag/fbdiag/internal/atomicfile"
	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/internal/units"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

// connectionFlags are --server, --wire-crypt and --auth, shared by
// collect, backup and restore.
func connectionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name:  "server",
			Value: "localhost",
			Usage: "HOST, HOST:PORT or HOST/PORT ([::1]:3050)",
		},
		&cli.StringFlag{
			Name:  "wire-crypt",
			Value: string(collect.WireCryptEnabled),
			Usage: "encryption: required, enabled or disabled",
		},
		&cli.StringFlag{
			Name:        "auth",
			Usage:       "login plugins, in order",
			DefaultText: strings.Join(collect.AuthPlugins, ","),
		},
	}
}

const credentialsHelp = `Credentials: ISC_USER (default SYSDBA) and ISC_PASSWORD from the environment, as
Firebird's own tools read them; without ISC_PASSWORD fbdiag asks on the terminal
(no echo). There is no password option: a password on the command line is visible
to every user through ps. On Debian the administrator's are in
/etc/firebird/3.0/SYSDBA.password:

    set -a; . /etc/firebird/3.0/SYSDBA.password; set +a

Paths are the server's: DATABASE is a path or alias as the server resolves it, and
the backup file is read or written by the server process (user firebird on Debian).
As for isql, gstat and gbak, the server may be named in front of a path (HOST:PATH,
HOST/PORT:PATH, [IPV6]:PATH) instead of with --server; a different --server is refused.
The connection uses Firebird 3's wire encryption, which Debian's server requires
(--wire-crypt required refuses an unencrypted one; --auth lists the login plugins to
offer; docs/live.md says what the driver enforces).`

func collectCommand() *cli.Command {
	return &cli.Command{
		Name:  "collect",
		Usage: "run gstat and read the monitoring tables on a live server, save and analyze",
		UsageText: "fbdiag collect [--server HOST[:PORT]] [--wire-crypt L] [--auth P] [--out FILE] [--force]\n" +
			"               [--switches \"-a -r\"] [--format F] [--top N] [--sort KEY] [--rules FILE] DATABASE",
		Description: `collect asks the server for the statistics gstat prints (through the Services API,
like fbsvcmgr action_db_stats, so no client tools are needed) and saves them as a
snapshot file that any fbdiag command reads like a saved gstat output. Lines starting
with "# fbdiag collect:" at the top record the server, its version, the database, the
switches and the collection time (UTC, as every time fbdiag prints).

It also reads, over SQL, MON$DATABASE (transaction markers, size, buffers),
the oldest active transaction of other attachments with its age, user, remote address
and process (MON$TRANSACTIONS + MON$ATTACHMENTS), the database's page I/O counters
(MON$IO_STATS) and every index's stored selectivity (RDB$INDICES.RDB$STATISTICS),
which it compares with the actual 1 / (nodes - total dup) from the gstat figures: an
index whose stored value is off by more than 2x is marked stale (the statement to run,
SET STATISTICS INDEX name, is listed; the factor is index-stale-statistics.factor, see
fbdiag rules). It reads the constraint each index enforces (RDB$RELATION_CONSTRAINTS),
so that the analysis names each index for what it is (before Firebird 3.0, whose
ALTER INDEX ... ACTIVE rebuilds any index, it advises ALTER INDEX INACTIVE/ACTIVE
only for an index no constraint uses). These are saved beside the snapshot as FILE.mon.json.

It then prints the analysis of the snapshot exactly as 'fbdiag gstat FILE' does
(--top, --sort, --rules, --architecture, --connections and --ram as there), followed
by the live figures. --format json
prints one object: the snapshot, the monitoring figures, the selectivity checks and
the gstat analysis (docs/live.md, docs/gstat-json.md). CSV is one table: --table tables
(the default), indices, warnings, summary, encryption or problems, as 'fbdiag gstat'
writes them, or the live figures: snapshot (server, connection, database), transactions
(the markers and how far each is behind Next), io (MON$IO_STATS) or selectivity (each
index's stored value against the actual one, stale or not).

Switches (--switches, default "-a -r"): -a data and index pages, -d data pages,
-i index pages, -r record versions, -s system tables too, -h header page only,
-t TABLE... only these tables.

The snapshot is FILE (--out) or, by default, DBNAME-YYYYMMDD-HHMMSSZ.gstat.txt in the
current folder (the time in UTC). Files are written under a temporary name and renamed
when complete; a failed run leaves no snapshot behind.

` + credentialsHelp + `

Examples:
    fbdiag collect /var/lib/firebird/3.0/data/shop.fdb
    fbdiag collect --server db1:3051 --switches "-d -r -t ORDERS" --out orders.txt shop
    fbdiag collect --format json employee > employee.json`,
		Flags: append(append(connectionFlags(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "snapshot file to write (default: DBNAME-TIME.gstat.txt)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --out file and its .mon.json"},
			&cli.StringFlag{Name: "switches", Value: collect.DefaultSwitches, Usage: "gstat switches: -a -d -i -r -s -h -t TABLE..."},
			metricsFormatFlag(),
			&cli.IntFlag{Name: "top", Value: view.GstatTop, Usage: "show the first N tables, indices and warnings (0 = all)"},
			&cli.BoolFlag{Name: "all", Usage: "show every table, index and warning (as --top 0)"},
			&cli.StringFlag{Name: "sort", Value: "size", Usage: "order tables by size, records, versions or depth"},
			tableFlag("tables, indices, warnings, summary, io..."),
			rulesFlag(),
		), serverSetupFlags()...),
		Action: func(c *cli.Context) error {
			o, err := collectFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runCollect(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// liveSetup reads what every live command needs: the output format, the
// server address and the credentials.
func liveSetup(c *cli.Context, nargs int) (report.Format, collect.Server, error) {
	f, conn, err := liveConnSetup(c, nargs)
	if err != nil {
		return f, collect.Server{}, err
	}
	e := getEnv(c)
	srv, err := conn.server(e.stdin, e.stderr)
	return f, srv, err
}

// liveConnSetup reads the output format and the connection, for a run
// function that reads the credentials itself.
func liveConnSetup(c *cli.Context, nargs int) (report.Format, liveConn, error) {
	f, err := outputFormat(c)
	if err != nil {
		return "", liveConn{}, err
	}
	return f, liveConnFlags(c, nargs), nil
}

// liveConn is a server to connect to, from --server, --wire-crypt and
// --auth; the credentials come from the environment when connecting.
type liveConn struct {
	addr string
	wire collect.WireCrypt
	auth []string
	// err is a bad command line, reported when the command gets to the
	// connection (after the checks of the files it would write).
	err error
}

// liveConnFlags reads the argument count, --server, --wire-crypt and
// --auth. A bad one is kept in the liveConn's err.
func liveConnFlags(c *cli.Context, nargs int) liveConn {
	var l liveConn
	if c.NArg() != nargs {
		l.err = usagef("%s: want %s, got %d (see fbdiag %s --help)", commandName(c), units.Count(nargs, "argument"), c.NArg(), commandName(c))
		return l
	}
	var err error
	if l.addr, err = collect.ParseServer(c.String("server")); err != nil {
		l.err = usagef("%v", err)
		return l
	}
	// A server in front of a path is refused with one line (no usage
	// hint): the command line is well formed, the servers disagree.
	_, named, err := liveArgs(c)
	if err != nil {
		l.err = cli.Exit(fmt.Sprintf("%s: %v", commandName(c), err), exitError)
		return l
	}
	if named.server != "" {
		if c.IsSet("server") && named.server != l.addr {
			l.err = cli.Exit(fmt.Sprintf("%s: %s %q names the server %s, --server %s another (%s): give the server once",
				commandName(c), named.role, named.arg, named.server, c.String("server"), l.addr), exitError)
			return l
		}
		l.addr = named.server
	}
	if l.wire, err = collect.ParseWireCrypt(c.String("wire-crypt")); err != nil {
		l.err = usagef("%v", err)
		return l
	}
	if l.auth, err = collect.ParseAuth(c.String("auth")); err != nil {
		l.err = usagef("%v", err)
	}
	return l
}

// liveArgRoles are the arguments of the commands that take them with their
// server in front, as isql, gstat and gbak do.
var liveArgRoles = map[string][]string{
	"collect":     {"DATABASE"},
	"backup":      {"DATABASE", "BACKUP_FILE"},
	"restore":     {"BACKUP_FILE", "DATABASE"},
	"bench init":  {"DATABASE"},
	"bench run":   {"DATABASE"},
	"bench sweep": {"DATABASE"},
}

// liveDatabase is the DATABASE argument of a command that takes only
// it, without the server named in front (liveArgs; liveSetup has
// checked it and taken the server).
func liveDatabase(c *cli.Context) string {
	args, _, _ := liveArgs(c)
	return args[0]
}

// namedServer is the server named in front of an argument.
type namedServer struct{ role, arg, server string }

// liveArgs gives the arguments of collect, backup or restore with the
// server taken out of any given as HOST:PATH, HOST/PORT:PATH or
// [IPV6]:PATH (collect.SplitDatabase), and the first that named one. The
// arguments of two servers, a server without a path and a Firebird URL
// are refused.
func liveArgs(c *cli.Context) ([]string, namedServer, error) {
	args := c.Args().Slice()
	roles := liveArgRoles[commandName(c)]
	var named namedServer
	for i, a := range args {
		if i >= len(roles) {
			break
		}
		server, path, err := collect.SplitDatabase(a)
		switch {
		case err != nil:
			return c.Args().Slice(), namedServer{}, fmt.Errorf("%s %v", roles[i], err)
		case server == "":
			continue
		case path == "":
			return c.Args().Slice(), namedServer{}, fmt.Errorf("%s %q names the server %s but no path after it", roles[i], a, server)
		case named.server != "" && server != named.server:
			return c.Args().Slice(), namedServer{}, fmt.Errorf("%s %q names the server %s, %s %q another (%s): the backup file is read and written by the database's server",
				named.role, named.arg, named.server, roles[i], a, server)
		}
		if named.server == "" {
			named = namedServer{roles[i], a, server}
		}
		args[i] = path
	}
	return args, named, nil
}

// server reads the credentials (ISC_USER, ISC_PASSWORD or a prompt on
// the terminal) and gives the server to connect to.
func (l liveConn) server(stdin io.Reader, stderr io.Writer) (collect.Server, error) {
	if l.err != nil {
		return collect.Server{}, l.err
	}
	user, pw, err := collect.Credentials(os.Getenv, stdin, stderr)
	if err != nil {
		return collect.Server{}, err
	}
	// Each warning once: the one of an unencrypted wire comes with every
	// connection.
	var mu sync.Mutex
	warned := map[string]bool{}
	warn := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if !warned[msg] {
			warned[msg] = true
			fmt.Fprintln(stderr, "fbdiag: warning: "+printable.String(msg))
		}
	}
	return collect.Server{Addr: l.addr, User: user, Password: pw, WireCrypt: l.wire, Auth: l.auth, Warn: warn}, nil
}

// commandName is the command's path below fbdiag: "collect", "bench run".
func commandName(c *cli.Context) string {
	var names []string
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name != "" && l.Command.Name != c.App.Name {
			names = append([]string{l.Command.Name}, names...)
		}
	}
	return strings.Join(names, " ")
}

// interruptible cancels the live work on Ctrl-C, SIGTERM (kill, timeout,
// systemd) or SIGHUP (a closed ssh session) so that temporary files are
// removed and the service connection is dropped. Until stop is called
// the signals only cancel ctx: the cleanup and restore's swap, which run
// on a context of their own, finish (or roll back) before the program
// ends, never cut in half.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// argAt is args[i], or "" when there are fewer.
func argAt(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// liveNameTime is the time in a default name: UTC, marked Z, as the times
// printed and saved (collect's "collected (UTC)", backup's "Started … UTC").
const liveNameTime = "20060102-150405Z"

// liveDefaultName builds NAME-SUFFIX-YYYYMMDD-HHMMSSZ.EXT from a server
// path, the time in UTC.
func liveDefaultName(serverPath, suffix, ext string, t time.Time) string {
	base := path.Base(strings.ReplaceAll(serverPath, `\`, "/"))
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	if suffix != "" {
		base += "-" + suffix
	}
	return base + "-" + t.UTC().Format(liveNameTime) + ext
}

// liveOutPath is the explicit name or a default one. An existing file
// is replaced (atomically) only when named explicitly with force: the
// name could be one of the user's inputs.
func liveOutPath(explicit, def string, force bool) (string, atomicfile.Options) {
	if explicit != "" {
		return explicit, atomicfile.Options{NoReplace: !force}
	}
	return def, atomicfile.Options{NoReplace: true}
}

// refuseExisting fails with one line when a file a live command would
// write is already there, before anything is asked of the server.
func refuseExisting(cmd string, opt atomicfile.Options, paths ...string) error {
	if !opt.NoReplace {
		return nil
	}
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return cli.Exit(fmt.Sprintf("%s: %s exists; not replaced (--force replaces it)", cmd, p), exitError)
		}
	}
	return nil
}

// ownFile is a file a live command reads or replaces, by its role.
type ownFile struct{ role, path string }

// refuseOwnFile fails with one line, before anything is asked of the
// server, when a file the command writes (flag names it) is one it reads
// or replaces: --force replaces an earlier log or snapshot, never the
// database or the backup.
func refuseOwnFile(cmd, addr, flag, out string, own ...ownFile) error {
	// Whatever name reached it (an alias the server resolves, which no
	// path comparison sees), a log or a snapshot never replaces a
	// database.
	if collect.IsDatabaseFile(out) {
		return cli.Exit(fmt.Sprintf("%s: %s %s is a Firebird database (its first page is a database header); nothing done, with or without --force (name another file)",
			cmd, flag, out), exitError)
	}
	s := collect.Server{Addr: addr}
	for _, f := range own {
		if s.SameFile(out, f.path) {
			return cli.Exit(fmt.Sprintf("%s: %s %s is %s %s; nothing done, with or without --force (name another file)",
				cmd, flag, out, f.role, f.path), exitError)
		}
	}
	return nil
}

// collectOptions is what fbdiag collect was asked for.
type collectOptions struct {
	ctx      context.Context
	switches collect.Switches
	out      gstatOutOptions
	th       analyze.Thresholds
	setup    analyze.ServerSetup
	database string
	file     string // the snapshot to write
	fileOpt  atomicfile.Options
	conn     liveConn
}

// collectFlags reads and checks the command line of fbdiag collect.
func collectFlags(c *cli.Context) (collectOptions, error) {
	o := collectOptions{ctx: c.Context}
	var err error
	if o.switches, err = collect.ParseSwitches(c.String("switches")); err != nil {
		return o, usagef("--switches: %v", err)
	}
	sortBy := c.String("sort")
	if !slices.Contains(analyze.TableSorts, sortBy) {
		return o, usagef("collect: --sort %q: want size, records, versions or depth", sortBy)
	}
	if o.out, err = gstatOutFlags(c, sortBy); err != nil {
		return o, err
	}
	if o.th, err = loadRules(c); err != nil {
		return o, err
	}
	if o.setup, err = serverSetup(c, "collect"); err != nil {
		return o, err
	}
	args, _, _ := liveArgs(c) // (a bad one is the connection's error)
	o.database = argAt(args, 0)
	o.file, o.fileOpt = liveOutPath(c.String("out"), liveDefaultName(o.database, "", ".gstat.txt", time.Now()), c.Bool("force"))
	o.conn = liveConnFlags(c, 1)
	return o, nil
}

// runCollect takes the snapshot and the live figures, saves them and
// prints their analysis.
func runCollect(o collectOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	gout := newGstatOut(o.out, e.stdout)
	th, setup, database, out, opt := o.th, o.setup, o.database, o.file, o.fileOpt
	db := ownFile{"the database", database}
	if err := refuseOwnFile("collect", o.conn.addr, "--out", out, db); err != nil {
		return err
	}
	if err := refuseOwnFile("collect", o.conn.addr, "the sidecar", out+".mon.json", db); err != nil {
		return err
	}
	if err := refuseExisting("collect", opt, out, out+".mon.json"); err != nil {
		return err
	}
	// (Found after the snapshot was taken: "open nodir/.s.txt.tmp-…: no
	// such file or directory".)
	if err := checkOutFolder("collect", "--out", out); err != nil {
		return err
	}
	srv, err := o.conn.server(stdin, stderr)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(o.ctx)
	defer stop()

	// The monitoring attachment comes first: it applies --auth and
	// --wire-crypt in full before the Services API connection, where the
	// driver can apply them only in part (docs/live.md).
	mon, err := srv.Monitor(ctx, database)
	if err != nil {
		return nothingWritten(err, out)
	}
	// An alias, now that the server named its file.
	for _, f := range []string{out, out + ".mon.json"} {
		if srv.SameFile(f, mon.File) {
			return &collect.Error{Op: "collect", Object: database, Server: srv.Addr, Kind: collect.KindSameFile,
				Detail: f + " is the database's file " + mon.File + "; nothing done (name the snapshot another file)"}
		}
	}
	var snap *collect.Snapshot
	if err := atomicfile.Write(out, opt, func(w io.Writer) error {
		// A snapshot that cannot be written (a full disk) is no failure
		// of the server's: its error says so and names the file.
		sw := &logWriter{w: w}
		var err error
		snap, err = srv.Stats(ctx, database, o.switches, sw)
		if err != nil && sw.err != nil {
			return fmt.Errorf("cannot write the snapshot %s: %v; nothing written", out, osCause(sw.err))
		}
		return err
	}); err != nil {
		return nothingWritten(err, out)
	}
	// The snapshot is analysed as `fbdiag gstat FILE` would, with what the
	// catalogue says each index enforces.
	// (and, when collect found it, the transaction that holds the OAT)
	as, err := analyzeGstatFile(stdin, out, th, analyze.GstatOptions{Catalogue: catalogue(mon), Server: setup, OldestActive: liveTransaction(mon.OldestTx),
		Remote: collect.ClientPrefix(srv.Addr)})
	if err != nil {
		return err
	}
	for _, a := range as {
		for _, n := range a.Notices {
			if !isPreambleNotice(n) {
				fmt.Fprintln(e.stderr, n)
			}
		}
	}
	res := &collectResult{Snapshot: snap, File: out, Monitor: mon, Gstat: as[len(as)-1]}
	res.Selectivity = analyze.CheckSelectivity(res.Gstat, storedSelectivity(mon), th)
	res.MonitorFile = out + ".mon.json"
	// The sidecar follows the snapshot's rule.
	if err := atomicfile.Write(res.MonitorFile, opt, func(w io.Writer) error {
		return report.WriteJSON(w, res.sidecar())
	}); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "fbdiag: snapshot %s (%s), monitoring %s\n", out, units.Count(snap.Lines, "line"), res.MonitorFile)
	if gout.json {
		return report.WriteJSON(e.stdout, res)
	}
	// The last run is the snapshot (a file holds one); the live tables
	// follow gstat's in the same document.
	live := analyze.Live(liveInput(res), th)
	return viewErr(view.Write(e.stdout, gout.format, gout.opt, view.Collect(res.Gstat, live, gout.vopt)))
}

// isPreambleNotice recognises the gstat reader's notice about the
// "# fbdiag collect:" lines collect itself wrote above gstat's text.
func isPreambleNotice(n parse.Notice) bool {
	return n.Line == 1 && strings.Contains(n.Msg, collect.PreamblePrefix)
}

// storedSelectivity hands the catalogue's values to the analysis.
func storedSelectivity(m *collect.Monitor) []analyze.StoredSelectivity {
	out := make([]analyze.StoredSelectivity, len(m.Indices))
	for i, ix := range m.Indices {
		out[i] = analyze.StoredSelectivity{Table: ix.Table, Index: ix.Index, Stored: ix.Stored}
	}
	return out
}

// catalogue hands the constraint each index enforces to the analysis.
func catalogue(m *collect.Monitor) []analyze.CatalogueIndex {
	out := make([]analyze.CatalogueIndex, len(m.Indices))
	for i, ix := range m.Indices {
		out[i] = analyze.CatalogueIndex{Table: ix.Table, Index: ix.Index}
		if ix.Constraint != nil && ix.ConstraintType != nil {
			out[i].Constraint, out[i].ConstraintType = *ix.Constraint, *ix.ConstraintType
		}
	}
	return out
}

// collectResult is collect's JSON output (docs/live.md).
type collectResult struct {
	Snapshot    *collect.Snapshot          `json:"snapshot"`
	File        string                     `json:"file"`
	MonitorFile string                     `json:"monitor_file"`
	Monitor     *collect.Monitor           `json:"monitor"`
	Selectivity []analyze.SelectivityCheck `json:"selectivity"`
	// Gstat is the snapshot's analysis, as `fbdiag gstat --format json`
	// prints it (docs/gstat-json.md).
	Gstat *analyze.GstatAnalysis `json:"gstat"`
}

// sidecar is what FILE.mon.json holds: the result without file names.
func (r *collectResult) sidecar() any {
	return struct {
		Snapshot    *collect.Snapshot          `json:"snapshot"`
		Monitor     *collect.Monitor           `json:"monitor"`
		Selectivity []analyze.SelectivityCheck `json:"selectivity"`
	}{r.Snapshot, r.Monitor, r.Selectivity}
}

// liveInput hands what collect read to the analysis.
func liveInput(r *collectResult) analyze.LiveInput {
	s, m, h := r.Snapshot, r.Monitor, r.Monitor.Header
	in := analyze.LiveInput{
		Server: s.Server, ServerVersion: s.ServerVersion, Database: s.Database, Switches: s.Switches,
		CollectedAt: s.CollectedAt, File: r.File, Lines: s.Lines,
		Login: m.Connection.AuthMethod, WireEncrypted: m.Connection.WireEncrypted, WireCipher: m.Connection.WireCipher,
		ServicesCipher: s.WireCipher, WireCrypt: s.WireCrypt,
		Attachments: m.Attachments, PageSize: h.PageSize, Pages: h.Pages, PageBuffers: h.PageBuffers,
		SweepInterval: h.SweepInterval,
		OIT:           h.OldestTransaction, OAT: h.OldestActive, OST: h.OldestSnapshot, NextTransaction: h.NextTransaction,
		PageReads: m.IO.PageReads, PageWrites: m.IO.PageWrites, PageFetches: m.IO.PageFetches, PageMarks: m.IO.PageMarks,
		Selectivity: r.Selectivity,
	}
	in.OldestActive = liveTransaction(m.OldestTx)
	return in
}

// liveTransaction hands the oldest active transaction of another
// attachment to the analysis; nil for none.
func liveTransaction(oa *collect.OldestActive) *analyze.LiveTransaction {
	if oa == nil {
		return nil
	}
	return &analyze.LiveTransaction{ID: oa.TransactionID, AgeSeconds: oa.AgeSeconds, AttachmentID: oa.AttachmentID,
		User: oa.User, RemoteAddress: oa.RemoteAddress, RemoteProcess: oa.RemoteProcess, RemotePID: oa.RemotePID}
}

// osCause is the system's reason of a file error ("no space left on
// device"), without the temporary name it was written under.
func osCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// nothingWritten says, after Ctrl-C, what the interrupted collect kept:
// no snapshot, and an existing one (--force) as it was.
func nothingWritten(err error, out string) error {
	var ce *collect.Error
	if !errors.As(err, &ce) || ce.Kind != collect.KindInterrupted || ce.Outcome != "" {
		return err
	}
	ce.Outcome = "nothing written"
	if _, serr := os.Lstat(out); serr == nil {
		ce.Outcome += "; " + out + " untouched"
	}
	return err
}
