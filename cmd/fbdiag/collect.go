package main

import "github.com/urfave/cli/v2"

// collectCommand is not built yet.
func collectCommand() *cli.Command {
	return &cli.Command{Name: "collect", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag collect: not built yet", 1) }}
}

// backupCommand is not built yet.
func backupCommand() *cli.Command {
	return &cli.Command{Name: "backup", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag backup: not built yet", 1) }}
}

// restoreCommand is not built yet.
func restoreCommand() *cli.Command {
	return &cli.Command{Name: "restore", Hidden: true, Action: func(c *cli.Context) error { return cli.Exit("fbdiag restore: not built yet", 1) }}
}
