package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

// chartFlags are --png DIR and the chart size flags the report shares,
// for the analysis commands.
func chartFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "png", Usage: "also write the charts of the analysis as PNG files into `DIR`"},
	}, pngFlags()...)
}

// pngRequest is what --png asked for; dir is empty when it was not given.
type pngRequest struct {
	dir  string
	opts plot.Options
}

// pngOptions reads --png and checks the size flags before any input is
// read, so a bad --width is a usage error (exit 2).
func pngOptions(c *cli.Context) (pngRequest, error) {
	r := pngRequest{dir: c.String("png")}
	if r.dir == "" {
		return r, nil
	}
	o, err := chartOptions(c)
	r.opts = o
	if err != nil {
		return r, err
	}
	// Checked before any input is read: the analysis is not printed
	// only to fail on the folder afterwards.
	return r, checkOutDir("--png", r.dir)
}

// checkOutDir fails when dir cannot be a folder to write into: a file
// of that name, a path through a file, or a place that takes no new file
// (a read-only mount, another user's folder).
func checkOutDir(flag, dir string) error {
	if dir == "" {
		// (report --out "" read "mkdir : no such file or directory",
		// exit 1, after the analysis)
		return usagef("%s: empty, want a folder name", flag)
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("%s %s: is a file, not a folder", flag, dir)
	case err != nil && !os.IsNotExist(err):
		return fmt.Errorf("%s %s: %w", flag, dir, pathErr(err))
	}
	// The folder, or the one it will be made in, must take a new file:
	// found only after the analysis, the failure was printed as
	// "open /mnt/ro/.tables-db.fdb.png.tmp-2456950564: read-only file
	// system". A probe file is made and removed at once.
	at := dir
	for err != nil && filepath.Dir(at) != at {
		at = filepath.Dir(at)
		_, err = os.Stat(at)
	}
	if err := probeWrite(at); err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %w", flag, dir, at, pathErr(err))
	}
	return nil
}

// probeWrite makes a file in dir and removes it at once: whether dir
// takes a new file, known before the work whose result goes there.
func probeWrite(dir string) error {
	probe, err := os.CreateTemp(dir, ".fbdiag-probe-*")
	if err != nil {
		return err
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// pathErr is the cause of a *fs.PathError ("not a directory"), for a
// message that names the path already.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeTo draws the charts into the folder and names each file on stderr
// (stdout carries the analysis, JSON included); draw is called only when
// --png was given.
func (r pngRequest) writeTo(stderr io.Writer, draw func() ([]*plot.Chart, error)) error {
	if r.dir == "" {
		return nil
	}
	charts, chartErr := draw()
	return r.emit(stderr, charts, chartErr)
}

// emit writes charts drawn already (chartErr: the error of those that
// could not be), naming each file on stderr.
func (r pngRequest) emit(stderr io.Writer, charts []*plot.Chart, chartErr error) error {
	if r.dir == "" {
		return nil
	}
	var drawn []*plot.Chart
	var whyNot []string
	for _, ch := range charts {
		switch {
		case ch == nil:
		case !ch.Drawn():
			// Every panel would be empty: its sentences say why.
			whyNot = append(whyNot, fmt.Sprintf("no %s chart: %s", ch.Kind, strings.Join(ch.Notes, "; ")))
		default:
			drawn = append(drawn, ch)
		}
	}
	if chartErr != nil {
		whyNot = append(whyNot, strings.Split(chartErr.Error(), "\n")...)
	}
	if len(drawn) == 0 {
		// Said in one line: where nothing was written, and why.
		why := "nothing to chart in this input"
		if len(whyNot) > 0 {
			why = strings.Join(whyNot, "; ")
		}
		fmt.Fprintf(stderr, "fbdiag: --png %s: no chart written: %s\n", r.dir, why)
		return nil
	}
	for _, w := range whyNot {
		// The charts that could be drawn are still written.
		fmt.Fprintln(stderr, "fbdiag: chart:", w)
	}
	charts = drawn
	stop := removeTempOnSignal()
	paths, err := report.WritePNGs(r.dir, charts, r.opts)
	stop()
	for _, p := range paths {
		fmt.Fprintln(stderr, "wrote", p)
	}
	if errors.Is(err, report.ErrNotOurs) {
		return cli.Exit(err.Error(), exitError)
	}
	return err
}

// chartName names a throughput chart (title and file) after its input:
// the first file, "+N" for the others.
func chartName(files []string) string {
	name := runLabel(files[0])
	if files[0] != "-" {
		name = filepath.Base(files[0])
	}
	if len(files) > 1 {
		name += "+" + strconv.Itoa(len(files)-1)
	}
	return name
}
