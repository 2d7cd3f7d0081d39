package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

func rulesFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "rules", Usage: "override thresholds from `FILE` (rule.key = value lines, or JSON)"}
}

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:      "rules",
		Usage:     "list the gstat health rules and their thresholds, with sources",
		UsageText: "fbdiag rules [--rules FILE] [--format F] [--table rules|thresholds]",
		Description: `Lists every health rule 'fbdiag gstat' applies: its id, what it flags, the
severities it can raise, and each threshold with its unit and the source it comes
from ("[U]" marks a fbdiag default no public source fixes). With --rules FILE the
overridden values are shown. A rules file holds "rule.key = value" lines (# starts
a comment) or one JSON object {"rule.key": value}; unknown keys, negative values,
values out of their unit's range and a critical limit below its warning are errors.
The server's architecture, connections and RAM that page-buffers judges are
given to gstat and collect as --architecture, --connections and --ram.
CSV writes one table: "rules" (the default) or "thresholds" with --table ("findings",
as every command has, is its header row alone).`,
		Flags: []cli.Flag{formatFlag(), rulesFlag(), tableFlag("rules (default), thresholds")},
		Action: func(c *cli.Context) error {
			o, err := rulesFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runRules(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// rulesOptions is what fbdiag rules was asked for.
type rulesOptions struct {
	rules  string // --rules FILE, "" for the defaults
	json   bool
	format view.Format
	table  string
}

func rulesFlags(c *cli.Context) (rulesOptions, error) {
	o := rulesOptions{rules: c.String("rules")}
	if c.NArg() > 0 {
		return o, usagef("rules: takes no arguments")
	}
	var err error
	if o.json, o.format, err = viewFormat(c, false); err != nil {
		return o, err
	}
	o.table, err = csvTable(c, o.format)
	return o, err
}

// runRules prints the rules with the thresholds in force.
func runRules(o rulesOptions, _ io.Reader, stdout, _ io.Writer) error {
	th, err := loadRulesFile(o.rules)
	if err != nil {
		return err
	}
	cat := analyze.Catalogue(th)
	if o.json {
		return report.WriteJSON(stdout, cat)
	}
	return viewErr(view.Write(stdout, o.format, view.Options{Table: o.table}, view.Rules(cat)))
}

// loadRules reads --rules, or returns the defaults.
func loadRules(c *cli.Context) (analyze.Thresholds, error) {
	return loadRulesFile(c.String("rules"))
}

// loadRulesFile reads a rules file over the defaults; "" is the defaults.
func loadRulesFile(name string) (analyze.Thresholds, error) {
	th := analyze.NewThresholds()
	if name == "" {
		return th, nil
	}
	// The flag is named: "open nosuch: no such file or directory" did
	// not say which file of the command line, and a folder read "adir:
	// read adir: is a directory".
	f, err := os.Open(name)
	if err != nil {
		return th, fmt.Errorf("--rules %s: %w", name, pathErr(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return th, fmt.Errorf("--rules %s: is a folder, not a file", name)
	}
	return analyze.LoadThresholds(f, name, th)
}
