// Package analyze turns parsed records into figures, fits and warnings:
// the judgement layer of fbdiag. It imports parse and never the output
// packages (plot, report) nor the command.
//
// Every threshold a rule uses lives in one table with its source, so a DBA
// can read it (fbdiag rules) and override it (--rules FILE).
//
// Comparisons of repeated measurements (restore steps over several runs,
// throughput of A against B) use Summarize and Compare: medians, the
// distribution-free interval of the median, and a two-sided Mann-Whitney U
// test at Alpha = 0.05, stated honestly for small samples as benchstat does.
package analyze
