// Package report renders analysis results for people and programs: the
// aligned text tables, CSV and markdown shared by every fbdiag command, the
// JSON encoder settings, and the self-contained HTML report.
//
// It sits above analyze and plot and below cmd/fbdiag: it never parses
// input and never decides what is healthy.
package report
