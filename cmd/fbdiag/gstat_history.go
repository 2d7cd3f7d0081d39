package main

import "github.com/urfave/cli/v2"

// gstatHistoryCommands are the gstat subcommands that compare snapshots
// (diff, trend); they are built in another branch.
func gstatHistoryCommands() []*cli.Command { return nil }
