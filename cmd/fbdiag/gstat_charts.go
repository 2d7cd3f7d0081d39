package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/fbdiag/fbdiag/analyze"
	"github.com/fbdiag/fbdiag/parse"
	"github.com/fbdiag/fbdiag/plot"
	"github.com/fbdiag/fbdiag/report"
)

// gstatCharts gathers the charts --png draws of the runs read as
// streams, table by table (report.GstatChartKeeper): of a file of a few
// runs, each run's; of a file of more (a cron job's), the last run's
// only, as the report shows it: thousands of charts would take minutes.
// Memory holds what the charts show, whatever the size of the database.
type gstatCharts struct {
	stderr io.Writer
	keep   *report.GstatChartKeeper
	// runs are the current file's: its first GstatRunSections and its
	// latest; total counts them all.
	runs  []report.GstatChartData
	total int
	kept  []report.GstatChartData // of the files read
}

func newGstatCharts(stderr io.Writer) *gstatCharts {
	return &gstatCharts{stderr: stderr, keep: report.NewGstatChartKeeper(report.TopObjects)}
}

// stream is s that also hands each table and run to the charts.
func (c *gstatCharts) stream(s analyze.GstatStream) analyze.GstatStream {
	table, run := s.Table, s.Run
	s.IndexWarningsOnly = false // (the charts count every warning of a table)
	s.Table = func(a *analyze.GstatAnalysis, t *analyze.TableStats) error {
		c.keep.Table(t, a.TableWarnings())
		if table == nil {
			return nil
		}
		return table(a, t)
	}
	s.Run = func(a *analyze.GstatAnalysis, rep *parse.GstatReport) error {
		c.total++
		if len(c.runs) > report.GstatRunSections {
			c.runs = c.runs[:report.GstatRunSections]
		}
		c.runs = append(c.runs, c.keep.End(a))
		if run == nil {
			return nil
		}
		return run(a, rep)
	}
	return s
}

// endFile keeps the charts of the file just read (shown: its name).
func (c *gstatCharts) endFile(shown string) {
	if c.total > report.GstatRunSections {
		fmt.Fprintf(c.stderr, "fbdiag: --png: %s holds %d gstat runs: the charts of the last (run %d) only, as the report shows it (gstat trend --png charts them over time)\n",
			shown, c.total, c.total)
		c.runs = c.runs[len(c.runs)-1:]
	}
	c.kept = append(c.kept, c.runs...)
	c.runs, c.total = nil, 0
}

// draw draws the kept charts, in the order of the files and runs.
func (c *gstatCharts) draw() ([]*plot.Chart, error) {
	var out []*plot.Chart
	var errs []error
	for _, d := range c.kept {
		cs, err := d.Draw()
		out = append(out, cs...)
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}
