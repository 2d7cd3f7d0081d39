package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

// gstatHistoryCommands are the gstat subcommands that compare snapshots
// of one database over time: diff (two) and trend (a series).
func gstatHistoryCommands() []*cli.Command {
	return []*cli.Command{gstatDiffCommand(), gstatTrendCommand()}
}

func gstatDiffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "what changed between two gstat snapshots of one database",
		UsageText: "fbdiag gstat diff [--format F] [--all] [--table NAME] OLD NEW  (or FILE of two runs or more)",
		Description: `Compares two gstat outputs of one database, OLD being the baseline: records,
back versions and bytes gained or lost per table (a change is (new - old) / old),
back versions piling up or collected, indices whose b-tree grew a level,
tables and indices created or dropped (matched by name: a renamed object is a
drop plus a create), and the header counters. The transaction rate is the
Next transaction delta over the time between the two "Gstat execution time"
lines; from it the age of the oldest active transaction is estimated in each
snapshot: (Next - OAT) / rate, kept only within the bounds the headers set
(the transaction started after the creation date, and before or after the
first snapshot as its number says). The health warnings that appeared, were
resolved or changed severity are listed; warnings on objects the other
snapshot does not show (other gstat switches) are counted, not compared.
A rate a day, and the transactions an hour, are shown only for snapshots
an hour or more apart (history-rate.min_span; the JSON has them always).

Snapshots from different Firebird versions (a restore to a newer ODS in
between) are compared on the values both print; the others are named.
Tables without a schema match their Firebird 6 PUBLIC (SYSTEM) namesakes;
the average fill of 6.0 is computed over non-empty pages only
(firebird#8816) and does not compare with older snapshots.

Sizes are in binary units (KiB, MiB, GiB), durations under a minute in
seconds, longer as h:mm:ss. Text shows the 20 tables and indices that
changed most and the 20 most severe warning changes (--all: every one), in
natural name order among equals. CSV
is one table: --table tables (the default), snapshots, counts, counters,
indices, warning_changes, fields_only, summary or warnings.

A file holding several gstat runs counts as its last run; a single FILE
holding two or more runs compares its first and last. The JSON form is the
contract of docs/gstat-history-json.md.`,
		Flags: []cli.Flag{
			formatFlag(),
			&cli.BoolFlag{Name: "all", Usage: "list every table, index and warning change, not 20 of each"},
			tableFlag("tables (default), or one named above"),
		},
		Action: func(c *cli.Context) error {
			json, f, err := viewFormat(c, false)
			if err != nil {
				return err
			}
			table, err := csvTable(c, f)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runGstatDiff(gstatDiffOptions{Files: c.Args().Slice(), JSON: json, Format: f, All: c.Bool("all"), Table: table},
				e.stdin, e.stdout, e.stderr)
		},
	}
}

// gstatDiffOptions are what the command line of gstat diff asks.
type gstatDiffOptions struct {
	// Files are OLD and NEW, or one file holding two runs or more.
	Files []string
	// JSON writes the analysis (docs/gstat-history-json.md); else Format.
	JSON   bool
	Format view.Format
	All    bool
	// Table is the CSV table ("" the tables).
	Table string
}

// runGstatDiff compares the snapshots and writes the diff.
func runGstatDiff(o gstatDiffOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	hugeHeap(stdin, o.Files, keptHeap) // (the diff lists every table and index of both)
	var before, after *analyze.HistorySnapshot
	switch len(o.Files) {
	case 1:
		snaps, _, err := readSnapshots(o.Files[0], stdin, stderr, snapshotRead{first: true})
		if err != nil {
			return err
		}
		if len(snaps) < 2 {
			return usagef("gstat diff: %s holds one gstat run; give OLD and NEW", o.Files[0])
		}
		before, after = snaps[0], snaps[len(snaps)-1]
	case 2:
		if err := stdinOnce("gstat diff", o.Files); err != nil {
			return err
		}
		var pair [2]*analyze.HistorySnapshot
		for i, name := range o.Files {
			snaps, runs, err := readSnapshots(name, stdin, stderr, snapshotRead{})
			if err != nil {
				return err
			}
			if runs > 1 {
				fmt.Fprintf(stderr, "%s holds %d gstat runs; comparing the last\n", name, runs)
			}
			pair[i] = snaps[len(snaps)-1]
		}
		before, after = pair[0], pair[1]
	default:
		return usagef("gstat diff: want two snapshots, OLD and NEW (got %d)", len(o.Files))
	}
	d := analyze.Diff(before, after)
	if o.JSON || o.Format == view.CSV {
		// The human formats print them with the figures.
		for _, w := range d.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	if o.JSON {
		return report.WriteJSON(stdout, d)
	}
	doc := view.HistoryDiff(d, view.HistoryOptions{Top: view.HistoryTop})
	return viewErr(view.Write(stdout, o.Format, view.Options{All: o.All, MoreHint: " (--all shows them)", Table: o.Table}, doc))
}
