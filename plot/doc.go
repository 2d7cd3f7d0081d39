// Package plot draws fbdiag's charts with gonum/plot: one function per
// chart kind, each taking a small plain struct of figures (never text to
// parse, never an analysis type), so that the analyses and the charts can
// change independently. report/charts.go holds the adapters that fill
// these structs from analysis results.
//
// Every function returns a *Chart, which remembers exactly which values it
// handed to gonum/plot (Chart.Plotted) so that tests can check a chart
// against the analysis instead of against pixels. Render it with
// (*Chart).PNG or write it with WritePNG:
//
//	c, err := plot.SweepChart(plot.Sweep{...})
//	if err != nil { ... }
//	err = plot.WritePNG(filepath.Join(dir, c.File()), c, plot.Options{})
//
// The same input gives the same PNG bytes on the same build: no time, no
// map order and no randomness reach the drawing.
package plot
