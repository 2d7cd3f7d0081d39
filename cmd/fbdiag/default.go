package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/plot"
)

// defaultAction runs when fbdiag is called with no command: the report on
// the embedded sample, written to ./fbdiag-report/, so a fresh checkout
// shows the whole product with `go run ./cmd/fbdiag`.
func defaultAction(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usagef("unknown command %q", c.Args().First())
	}
	return runReport(c, nil, "", defaultReportDir, plot.Options{})
}
