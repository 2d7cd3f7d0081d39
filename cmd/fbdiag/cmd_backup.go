package main

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/collect"
)

func backupCommand() *cli.Command {
	return &cli.Command{
		Name:  "backup",
		Usage: "back up a database on a live server (gbak -v -st tdrw) and show its timeline",
		UsageText: "fbdiag backup [--server HOST[:PORT]] [--wire-crypt L] [--auth P] [--log FILE] [--force]\n" +
			"              [gbak switches] [--format F] [--top N] DATABASE BACKUP_FILE",
		Description: `backup runs gbak's backup on the server through the Services API, with verbose
output and per-line statistics (time, delta, page reads, page writes: gbak -st tdrw),
and writes the log line by line as it arrives, in the form "gbak -b -v -st tdrw -y LOG"
would. The log is --log FILE or, by default, BACKUPNAME-backup-YYYYMMDD-HHMMSSZ.log
(the time in UTC, as the start printed) in the current folder. Then it prints the log's
timeline as 'fbdiag gbak LOG' does (phases, tables, slowest steps).

An existing backup is never lost. The server writes the new one under a temporary name
beside BACKUP_FILE (.NAME.tmp-*), which fbdiag renames to BACKUP_FILE only after gbak
reported success; a failed or interrupted backup leaves nothing. An existing BACKUP_FILE
is refused unless --force, and even then replaced only by the complete new backup. This
needs the file's folder on this machine: the server local, the folder writable by this
user (root, or the firebird group on Debian). For a remote server the Services API can
neither look at nor rename files, so fbdiag refuses unless --force, which lets gbak write
BACKUP_FILE directly as gbak does (replacing any file of that name).

Ctrl-C cancels the backup on the server (fbdiag deletes its attachment, and gbak
removes its partial file). A log that ends early is kept as LOG.partial.

On a terminal, stderr shows the phase, the current step, the time elapsed and, where an
earlier complete backup log of the same database is in the log's folder, the time left.

` + credentialsHelp + `

Example:
    fbdiag backup --no-gc /var/lib/firebird/3.0/data/shop.fdb /var/lib/firebird/3.0/data/shop.fbk`,
		Flags: append(connectionFlags(),
			&cli.StringFlag{Name: "log", Usage: "gbak log file to write (default: BACKUPNAME-backup-TIME.log)"},
			&cli.BoolFlag{Name: "force", Usage: "replace BACKUP_FILE when the new one is done, and --log"},
			&cli.BoolFlag{Name: "no-gc", Usage: "gbak -g: no garbage collection while reading"},
			&cli.BoolFlag{Name: "ignore-checksums", Usage: "gbak -ig: ignore checksum errors (no other attachment)"},
			&cli.BoolFlag{Name: "ignore-limbo", Usage: "gbak -l: ignore transactions in limbo"},
			&cli.BoolFlag{Name: "non-transportable", Usage: "gbak -nt: native format instead of XDR"},
			&cli.BoolFlag{Name: "metadata-only", Usage: "gbak -m: metadata only, no data"},
			&cli.StringFlag{Name: "skip-data", Usage: "gbak -skip_data REGEXP: skip these tables' data (Firebird 3.0+)"},
			&cli.IntFlag{Name: "parallel", Usage: "gbak -par N: parallel workers (needs Firebird 5.0)"},
			formatFlag(),
			topFlag(),
		),
		Action: func(c *cli.Context) error {
			o := backupFlags(c)
			e := getEnv(c)
			return runBackup(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// backupOptions is what fbdiag backup was asked for.
type backupOptions struct {
	svc           gbakServiceOptions
	database, fbk string
	opt           collect.BackupOptions
}

// backupFlags reads the command line of fbdiag backup.
func backupFlags(c *cli.Context) backupOptions {
	args, _, _ := liveArgs(c) // (a bad one is the connection's error)
	o := backupOptions{database: argAt(args, 0), fbk: argAt(args, 1)}
	o.svc = gbakServiceFlags(c, liveDefaultName(o.fbk, "backup", ".log", time.Now()))
	if c.Int("parallel") < 0 {
		o.svc.fail(usagef("--parallel %d: want 1 or more", c.Int("parallel")))
	}
	o.opt = collect.BackupOptions{
		NoGarbageCollect: c.Bool("no-gc"),
		IgnoreChecksums:  c.Bool("ignore-checksums"),
		IgnoreLimbo:      c.Bool("ignore-limbo"),
		NonTransportable: c.Bool("non-transportable"),
		MetadataOnly:     c.Bool("metadata-only"),
		SkipData:         c.String("skip-data"),
		Parallel:         c.Int("parallel"),
		Force:            c.Bool("force"),
		Outputs:          []string{o.svc.logFile},
	}
	o.svc.own = []ownFile{{"the database", o.database}, {"the backup file", o.fbk}}
	o.svc.setup(c, 2)
	return o
}

// runBackup backs the database up, writing the log as it comes, and
// prints the log's timeline.
func runBackup(o backupOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	srv, err := o.svc.start(stdin, stderr)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(o.svc.ctx)
	defer stop()
	est := earlierBackupLog(o.svc.logFile, o.database)
	return runGbakService(o.svc, &env{stdin: stdin, stdout: stdout, stderr: stderr}, est,
		func(w io.Writer, p func(collect.Progress)) (*collect.GbakRun, error) {
			return srv.Backup(ctx, o.database, o.fbk, o.opt, w, p)
		})
}
