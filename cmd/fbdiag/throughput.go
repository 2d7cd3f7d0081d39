package main

import "github.com/urfave/cli/v2"

// throughputCommand is not built yet.
func throughputCommand() *cli.Command {
	return &cli.Command{Name: "throughput", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag throughput: not built yet", 1) }}
}
