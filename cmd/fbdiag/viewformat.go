package main

import (
	"errors"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/view"
)

// metricsFormatFlag is --format for the commands that also write
// OpenMetrics (gstat, collect).
func metricsFormatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "format",
		Value: "text",
		Usage: "output format: text, json, csv, markdown or openmetrics",
	}
}

// tableFlag is --table, the one table CSV output holds.
func tableFlag(names string) *cli.StringFlag {
	return &cli.StringFlag{Name: "table", Usage: "`NAME` of the CSV table: " + names}
}

// viewFormat reads --format for a command rendered by package view: JSON
// is the analysis itself, the rest view's formats; OpenMetrics only
// where metrics says the command has them. A bad value is a usage error.
func viewFormat(c *cli.Context, metrics bool) (json bool, f view.Format, err error) {
	s := strings.ToLower(c.String("format"))
	want := "text, json, csv or markdown"
	if metrics {
		want = "text, json, csv, markdown or openmetrics"
	}
	if s == "json" {
		return true, "", nil
	}
	f, err = view.ParseFormat(s)
	if err != nil || f == view.HTML || f == view.OpenMetrics && !metrics {
		return false, "", usagef("%s: unknown format %q (want %s)", c.Command.Name, c.String("format"), want)
	}
	return false, f, nil
}

// csvTable reads --table, the one table CSV output holds: with another
// format it is a usage error, not ignored (gstat diff, gstat trend and
// rules printed their text with exit 0, so a script that forgot
// --format csv parsed a report as its table).
func csvTable(c *cli.Context, f view.Format) (string, error) {
	t := c.String("table")
	if t != "" && f != view.CSV {
		return "", usagef("%s: --table chooses the CSV table: give --format csv too", c.Command.FullName())
	}
	return t, nil
}

// viewErr makes the writers' errors that the command line caused usage
// errors (an unknown --table lists the valid names).
func viewErr(err error) error {
	if errors.Is(err, view.ErrNoTable) {
		return usagef("--table: %v", err)
	}
	return err
}
