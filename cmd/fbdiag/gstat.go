package main

import "github.com/urfave/cli/v2"

// gstatCommand is not built yet.
func gstatCommand() *cli.Command {
	return &cli.Command{Name: "gstat", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag gstat: not built yet", 1) }}
}

// rulesCommand is not built yet.
func rulesCommand() *cli.Command {
	return &cli.Command{Name: "rules", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag rules: not built yet", 1) }}
}
