package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

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
	return r, err
}

// write draws the charts into the folder and names each file on stderr
// (stdout carries the analysis, JSON included). draw is called only when
// --png was given.
func (r pngRequest) write(c *cli.Context, draw func() ([]*plot.Chart, error)) error {
	return r.writeTo(getEnv(c).stderr, draw)
}

// writeTo is write for a run function, which has the streams and no
// *cli.Context.
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
	if chartErr != nil {
		// The charts that could be drawn are still written.
		fmt.Fprintln(stderr, "fbdiag: chart:", chartErr)
	}
	if len(charts) == 0 {
		fmt.Fprintln(stderr, "fbdiag: --png: nothing to chart in this input")
		return nil
	}
	stop := removeTempOnSignal()
	paths, err := report.WritePNGs(r.dir, charts, r.opts)
	stop()
	for _, p := range paths {
		fmt.Fprintln(stderr, "wrote", p)
	}
	if errors.Is(err, report.ErrNotOurs) {
		return cli.Exit("fbdiag: "+err.Error(), exitError)
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
