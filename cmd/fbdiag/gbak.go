package main

import "github.com/urfave/cli/v2"

// gbakCommand is not built yet.
func gbakCommand() *cli.Command {
	return &cli.Command{Name: "gbak", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag gbak: not built yet", 1) }}
}
