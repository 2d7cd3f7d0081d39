package main

import "github.com/urfave/cli/v2"

// defaultAction runs when fbdiag is called with no command: the report on
// the embedded sample (see report.go), so a fresh checkout shows the whole
// product. Until the report exists it falls back to help.
func defaultAction(c *cli.Context) error {
	if c.Args().Len() > 0 {
		return usagef("unknown command %q", c.Args().First())
	}
	return cli.ShowAppHelp(c)
}
