package main

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/collect"
)

func restoreCommand() *cli.Command {
	return &cli.Command{
		Name:  "restore",
		Usage: "restore a backup on a live server (gbak -v -st tdrw) and show its timeline",
		UsageText: "fbdiag restore [--server HOST[:PORT]] [--wire-crypt L] [--auth P] [--replace] [--log FILE]\n" +
			"               [--force] [gbak switches] [--format F] [--top N] BACKUP_FILE DATABASE",
		Description: `restore runs gbak's restore on the server through the Services API, with verbose
output and per-line statistics (gbak -c -v -st tdrw), and writes the log line by line
as it arrives. The log is --log FILE or, by default, DBNAME-restore-YYYYMMDD-HHMMSSZ.log
in the current folder (the time in UTC, as the start printed); an existing log is
refused unless --force. Then it prints the log's timeline as 'fbdiag gbak LOG' does:
phases, each table's data, each index build, slowest steps.

The server is only ever asked to create a database. fbdiag restores under a temporary
name beside DATABASE (.NAME.tmp-*) and gives the new database its name only after gbak
reported success, so a failure or Ctrl-C leaves nothing and never loses the original.
Without --replace an existing DATABASE is refused before anything starts. With
--replace (gbak -rep) the original must not be in use: fbdiag refuses if others are
attached, then, once the new database is complete, shuts the original down (gfix -shut
full -attach 0, which fails if anyone attached meanwhile: the original stays online
and the restored database is kept beside it, named in the error), gives the new one its name in
one step (the two names exchanged; where the system cannot, the original renamed aside,
then the new one into place) and deletes the original; on any failure the original is
put back online. A restore that gbak finished past an error (an index it could not build over
duplicate keys, the database left offline) is a failure: the original is not replaced,
and the restored database is kept beside it, named in the error. This needs the
database's folder on this machine and writable by this user (root, or the firebird
group on Debian). For a remote server the Services API cannot
rename files: a new database is restored directly under its name (a failure says what
it left) and --replace is refused.

Firebird cannot cancel a running restore: on Ctrl-C fbdiag deletes the temporary
database, and the server's restore, which goes on, leaves nothing when it ends. A log
that ends early is kept as LOG.partial.

On a terminal, stderr shows the phase, the current step (the index being built), the
time elapsed and, where an earlier complete restore log of DATABASE (default name) is in
the log's folder, the time left.

` + credentialsHelp + `

Example:
    cd /var/lib/firebird/3.0/data
    fbdiag restore --replace --buffers 2048 --log /tmp/restore.log $PWD/shop.fbk $PWD/shop.fdb`,
		Flags: append(connectionFlags(),
			&cli.BoolFlag{Name: "replace", Usage: "gbak -rep: replace DATABASE when the new one is done"},
			&cli.StringFlag{Name: "log", Usage: "gbak log file to write (default: DBNAME-restore-TIME.log)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing --log file"},
			&cli.IntFlag{Name: "page-size", Usage: "gbak -p N: page size of the new database", DefaultText: "the backup's"},
			&cli.IntFlag{Name: "buffers", Usage: "gbak -bu N: page buffers stored in the header", DefaultText: "the backup's"},
			&cli.BoolFlag{Name: "inactive", Usage: "gbak -i: leave every index inactive"},
			&cli.BoolFlag{Name: "one-at-a-time", Usage: "gbak -o: commit after each table"},
			&cli.BoolFlag{Name: "use-all-space", Usage: "gbak -use_all_space: fill data pages, no reserve"},
			&cli.BoolFlag{Name: "read-only", Usage: "gbak -mode read_only: a read-only database"},
			&cli.StringFlag{Name: "fix-fss-data", Usage: "gbak -fix_fss_data CHARSET: repair FSS data"},
			&cli.StringFlag{Name: "fix-fss-metadata", Usage: "gbak -fix_fss_metadata CHARSET: repair FSS metadata"},
			&cli.IntFlag{Name: "parallel", Usage: "gbak -par N: parallel workers (needs Firebird 5.0)"},
			formatFlag(),
			topFlag(),
		),
		Action: func(c *cli.Context) error {
			o := restoreFlags(c)
			e := getEnv(c)
			return runRestore(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// restoreOptions is what fbdiag restore was asked for.
type restoreOptions struct {
	svc           gbakServiceOptions
	fbk, database string
	opt           collect.RestoreOptions
}

// restoreFlags reads the command line of fbdiag restore.
func restoreFlags(c *cli.Context) restoreOptions {
	args, _, _ := liveArgs(c) // (a bad one is the connection's error)
	o := restoreOptions{fbk: argAt(args, 0), database: argAt(args, 1)}
	o.svc = gbakServiceFlags(c, liveDefaultName(o.database, "restore", ".log", time.Now()))
	ps := c.Int("page-size")
	if ps != 0 && (ps < 1024 || ps > 32768 || ps&(ps-1) != 0) {
		o.svc.fail(usagef("--page-size %d: want 4096, 8192, 16384 or 32768", ps))
	}
	// Each names the flag that is wrong: one message for both read
	// "--buffers -5 / --parallel 0: want 1 or more".
	for _, f := range []string{"buffers", "parallel"} {
		if c.Int(f) < 0 {
			o.svc.fail(usagef("--%s %d: want 1 or more", f, c.Int(f)))
		}
	}
	o.opt = collect.RestoreOptions{
		Replace:        c.Bool("replace"),
		PageSize:       ps,
		Buffers:        c.Int("buffers"),
		Inactive:       c.Bool("inactive"),
		OneAtATime:     c.Bool("one-at-a-time"),
		UseAllSpace:    c.Bool("use-all-space"),
		ReadOnly:       c.Bool("read-only"),
		FixFSSData:     c.String("fix-fss-data"),
		FixFSSMetadata: c.String("fix-fss-metadata"),
		Parallel:       c.Int("parallel"),
		Outputs:        []string{o.svc.logFile},
	}
	o.svc.own = []ownFile{{"the backup file", o.fbk}, {"the database", o.database}}
	o.svc.setup(c, 2)
	return o
}

// runRestore restores the backup, writing the log as it comes, and
// prints the log's timeline.
func runRestore(o restoreOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	srv, err := o.svc.start(stdin, stderr)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(o.svc.ctx)
	defer stop()
	est := earlierRestoreLog(o.svc.logFile, o.database)
	return runGbakService(o.svc, &env{stdin: stdin, stdout: stdout, stderr: stderr}, est,
		func(w io.Writer, p func(collect.Progress)) (*collect.GbakRun, error) {
			return srv.Restore(ctx, o.fbk, o.database, o.opt, w, p)
		})
}
