#!/bin/sh
# perf-table.sh BIN: the gstat rows of README's performance table, each
# the median of seven rounds of tools/vs-wc against `wc -l` on the same
# file. The four inputs are made first, as README says, from the fb30
# sample (shop-made) and from FirebirdSQL/fdb's gstat30-f.out (fdb-made)
# in ../shared/corpus, at 100 and 300 MiB, in $TMPDIR (default /tmp).
# Stop everything else on the machine first: the ratios are of wall time.
set -eu
bin=${1:?usage: perf-table.sh FBDIAG-BINARY}
dir=${TMPDIR:-/tmp}
fdb=../shared/corpus/public/gstat/FirebirdSQL-fdb__gstat30-f.out
go build -o "$dir/vs-wc" ./tools/vs-wc
for size in 100 300; do
	[ -s "$dir/shop$size.txt" ] || go run ./tools/make-big -kind gstat -size ${size}MiB -o "$dir/shop$size.txt"
	[ -s "$dir/fdb$size.txt" ] || go run ./tools/make-big -kind gstat -size ${size}MiB -src "$fdb" -o "$dir/fdb$size.txt"
done
echo "| command, input | wall (CPU) | × \`wc -l\` (range) | peak RSS | \`wc -l\` |"
echo "|---|---|---|---|---|"
for input in shop100 shop300 fdb100 fdb300; do
	case $input in
	shop*) what="shop-made ${input#shop} MiB" ;;
	fdb*) what="fdb-made ${input#fdb} MiB" ;;
	esac
	for format in text markdown csv "csv --table indices" "csv --table warnings" json openmetrics; do
		# shellcheck disable=SC2086 # (format is words)
		"$dir/vs-wc" -n 7 -row "\`gstat\` $format, $what" -- "$bin" gstat --format $format "$dir/$input.txt"
	done
done
