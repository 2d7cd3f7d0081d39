package main

import (
	"github.com/urfave/cli/v2"
)

// defaultAction runs when fbdiag is called with no command: the report on
// the embedded sample, written to ./fbdiag-report/, so a fresh checkout
// shows the whole product with `go run ./cmd/fbdiag`.
func defaultAction(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usagef("unknown command %q", c.Args().First())
	}
	e := getEnv(c)
	return runReport(reportOptions{dir: defaultReportDir}, e.stdin, e.stdout, e.stderr)
}
