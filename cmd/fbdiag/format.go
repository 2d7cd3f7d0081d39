package main

import "github.com/fbdiag/fbdiag/report"

// Cell formatting lives in package report (cells.go), shared by every
// command's tables. These short names stay for the command files that
// build tables of their own (gstat_history.go).

func clip(s string, n int) string               { return report.Clip(s, n) }
func num(v float64) string                      { return report.Num(v) }
func intOr(p *int64) string                     { return report.Int(p) }
func floatOr(p *float64, prec int) string       { return report.Float(p, prec) }
func bytesOr(p *int64) string                   { return report.Size(p) }
func wrap(s, indent string, width int) []string { return report.Wrap(s, indent, width) }
