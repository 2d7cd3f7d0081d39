package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/report"
	"github.com/fbdiag/fbdiag/view"
)

func detectCommand() *cli.Command {
	return &cli.Command{
		Name:      "detect",
		Usage:     "print what each file was recognised as, and why",
		ArgsUsage: "FILE|FOLDER|-...",
		Flags:     []cli.Flag{formatFlag()},
		Action: func(c *cli.Context) error {
			o, err := detectFlags(c)
			if err != nil {
				return err
			}
			e := getEnv(c)
			return runDetect(o, e.stdin, e.stdout, e.stderr)
		},
	}
}

// detectOptions is what fbdiag detect was asked for.
type detectOptions struct {
	args   []string
	json   bool
	format view.Format
}

func detectFlags(c *cli.Context) (detectOptions, error) {
	o := detectOptions{args: c.Args().Slice()}
	if len(o.args) == 0 {
		return o, usagef("detect: name at least one file")
	}
	var err error
	o.json, o.format, err = viewFormat(c, false)
	return o, err
}

// runDetect recognises each input as the report would and prints it.
func runDetect(o detectOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := stdinOnce("detect", o.args); err != nil {
		return err
	}
	ins, files, errs, remove, err := namedInputs(stdin, stderr, "detect", o.args)
	if err != nil {
		return err
	}
	defer remove()
	if len(ins) == 0 && len(errs) == 0 {
		return cli.Exit("detect: no file in "+strings.Join(files, ", "), exitError)
	}
	for _, err := range errs {
		fmt.Fprintln(stderr, "fbdiag: detect:", err)
	}
	// Nothing on stdout when nothing was read: a bare header row would
	// read as "no files".
	if len(ins) > 0 {
		found := make([]parse.Detected, len(ins))
		for i, in := range ins {
			found[i] = parse.Detected{File: in.Name, Kind: in.Kind, Reason: in.Reason}
			if in.Part != nil {
				found[i].Source, found[i].FirstLine, found[i].LastLine = in.File, in.Part.First, in.Part.Last
				found[i].SkippedLines = &in.Split.Skipped
			}
		}
		if o.json {
			err = report.WriteJSON(stdout, found)
		} else {
			err = view.Write(stdout, o.format, view.Options{}, view.Detect(found))
		}
		if err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		return cli.Exit("", exitError)
	}
	return nil
}
