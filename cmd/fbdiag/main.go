package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/internal/printable"
	"github.com/fbdiag/fbdiag/report"
)

// Exit codes, as go vet and govulncheck use them.
const (
	exitOK     = 0
	exitError  = 1
	exitUsage  = 2
	exitFailOn = 3
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// usageError marks a mistake in the command line (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// failOnError reports that --fail-on matched (exit 3); the analysis was
// printed already.
type failOnError struct{ msg string }

func (e *failOnError) Error() string { return e.msg }

// env carries the process's streams to the commands, so tests can run the
// whole CLI with buffers.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

func getEnv(c *cli.Context) *env { return c.App.Metadata["env"].(*env) }

// run is the whole program: it parses args, runs the command and returns
// the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Names from the inputs reach the terminal in every format: the
	// table writers escape their cells; this guard catches the control
	// characters of whatever else is printed (a database path, a file
	// name). stderr stays as it is for the progress line, which needs
	// the terminal; the messages printed here go through a guard too.
	app := newApp(&env{stdin: stdin, stdout: printable.NewWriter(stdout), stderr: stderr})
	stderr = printable.NewWriter(stderr)
	if len(args) > 1 && args[1] == "help" {
		// "fbdiag help gstat trend" is "fbdiag gstat trend --help", as in
		// go help and git help.
		args = append(append([]string{args[0]}, args[2:]...), "--help")
	}
	args = optionsFirst(app, args)
	err := app.Run(args)
	if err == nil {
		return exitOK
	}
	if topic, ok := strings.CutPrefix(err.Error(), "No help topic for "); ok {
		// cli's answer to an unknown subcommand of bench ("fbdiag bench
		// nosuch") or to "gstat help nosuch" exits 3, which is --fail-on's.
		err = usagef("unknown command %q", strings.Trim(topic, "'"))
	}
	var ue *usageError
	var fe *failOnError
	var ce cli.ExitCoder
	switch {
	case errors.As(err, &fe):
		fmt.Fprintln(stderr, "fbdiag:", err)
		return exitFailOn
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "fbdiag:", err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", commandPath(app, args))
		return exitUsage
	case errors.As(err, &ce):
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "fbdiag:", msg)
		}
		return ce.ExitCode()
	case isFlagError(err):
		fmt.Fprintln(stderr, "fbdiag:", err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", commandPath(app, args))
		return exitUsage
	}
	fmt.Fprintln(stderr, "fbdiag:", err)
	return exitError
}

// subcommand is the command of cmds that a names, or nil.
func subcommand(cmds []*cli.Command, a string) *cli.Command {
	var found *cli.Command
	for _, c := range cmds {
		if c.HasName(a) {
			found = c
		}
	}
	return found
}

// commandPath is "fbdiag gstat trend" for the command args run, so that a
// usage error points at the help that documents the flag.
func commandPath(app *cli.App, args []string) string {
	path := []string{"fbdiag"}
	cmds := app.Commands
	for _, a := range args[min(1, len(args)):] {
		next := subcommand(cmds, a)
		if next == nil || next.Name == "help" {
			break
		}
		path = append(path, next.Name)
		cmds = next.Subcommands
	}
	return strings.Join(path, " ")
}

// isFlagError recognises urfave/cli's own complaints about the command line.
func isFlagError(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "flag provided but not defined") ||
		strings.HasPrefix(s, "invalid value") ||
		strings.HasPrefix(s, "Required flag") ||
		strings.HasPrefix(s, "flag needs an argument")
}

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:      "fbdiag",
		Usage:     "diagnose Firebird databases from gstat, gbak and benchmark output",
		Version:   version,
		UsageText: "fbdiag [command] [options] FILE...",
		Description: `fbdiag reads the text Firebird's own tools already produce and says what it means.

Inputs (a file name, or - for standard input):
  gstat      output of gstat / fbstat (Debian) / fbsvcmgr action_db_stats, any
             switches, Firebird 1.5 to 6.0:   gstat -a -r DB > stats.txt
  gbak       verbose backup or restore log with statistics:
             gbak -c -v -st tdrw -y restore.log backup.fbk DB
  throughput result tables (CSV, TSV, markdown, aligned text) and the output
             of pgbench, sysbench, HammerDB and go test -bench

With no command, fbdiag writes the HTML report of its embedded sample.

Exit status: 0 ok, 1 error, 2 usage, 3 when --fail-on matched.`,
		Reader:               e.stdin,
		Writer:               e.stdout,
		ErrWriter:            e.stderr,
		Metadata:             map[string]any{"env": e},
		EnableBashCompletion: true,
		HideHelpCommand:      true,
		Commands:             commands(),
		OnUsageError: func(c *cli.Context, err error, isSub bool) error {
			return &usageError{msg: err.Error()}
		},
		ExitErrHandler: func(c *cli.Context, err error) {},
		Action:         defaultAction,
	}
	for _, cmd := range app.Commands {
		setUsageErrors(cmd)
	}
	return app
}

func setUsageErrors(cmd *cli.Command) {
	if cmd.OnUsageError == nil {
		cmd.OnUsageError = func(c *cli.Context, err error, isSub bool) error {
			return &usageError{msg: err.Error()}
		}
	}
	for _, sub := range cmd.Subcommands {
		setUsageErrors(sub)
	}
}

// commands lists every subcommand; each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		gstatCommand(),
		rulesCommand(),
		gbakCommand(),
		throughputCommand(),
		reportCommand(),
		detectCommand(),
		collectCommand(),
		backupCommand(),
		restoreCommand(),
		benchCommand(),
	}
}

// formatFlag is the --format flag every analysis command shares.
func formatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "format",
		Value: "text",
		Usage: "output format: text, json, csv or markdown",
	}
}

// outputFormat reads --format, turning a bad value into a usage error.
func outputFormat(c *cli.Context) (report.Format, error) {
	f, err := report.ParseFormat(c.String("format"))
	if err != nil {
		return "", &usageError{msg: err.Error()}
	}
	return f, nil
}
