package main

import "github.com/urfave/cli/v2"

// reportCommand is not built yet.
func reportCommand() *cli.Command {
	return &cli.Command{Name: "report", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag report: not built yet", 1) }}
}

// detectCommand is not built yet.
func detectCommand() *cli.Command {
	return &cli.Command{Name: "detect", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag detect: not built yet", 1) }}
}
