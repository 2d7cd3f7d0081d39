// Package collect talks to a live Firebird server: it runs gstat through
// the Services API, reads the monitoring tables over SQL, and runs gbak
// backups and restores with per-line statistics, streaming every line to a
// writer as it arrives so that memory does not grow with the database.
//
// It is the only package that imports github.com/nakagami/firebirdsql. It
// produces text in the formats fbdiag's readers already understand (gstat
// output, gbak verbose logs with -st tdrw) plus the monitoring figures as
// typed records; judging them is the analyze package's job.
//
// Credentials come from ISC_USER / ISC_PASSWORD or a no-echo prompt, never
// from the command line, and never appear in errors or output.
package collect
