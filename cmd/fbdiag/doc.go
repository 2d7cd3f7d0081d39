// Fbdiag reads the text Firebird's own tools already produce (gstat
// statistics, gbak verbose logs) and the results of throughput benchmarks,
// and says what they mean: which tables and indices are sick and why, where
// a restore spends its time, how throughput degrades with size, which
// setting is best.
//
// Usage:
//
//	fbdiag                       the report of the embedded sample, in ./fbdiag-report/
//	fbdiag report [--out DIR] [--title T] [CHARTS] [INPUT|FOLDER|-]...
//	fbdiag detect [--format F] FILE|FOLDER|- ...
//	fbdiag gstat [--format F] [--top N] [--sort KEY] [--fail-on SEV] [--rules FILE] [PNG] FILE|- ...
//	fbdiag gstat diff [--format F] [--all] [--table NAME] OLD NEW
//	fbdiag gstat trend [--format F] [--until SIZE] [--top N] [--all] [--table NAME] [PNG] SNAPSHOT|DIR ...
//	fbdiag rules [--format F] [--rules FILE]
//	fbdiag gbak [--format F] [--top N] [--fail-on failed] [PNG] LOG|-
//	fbdiag gbak compare [--format F] [--top N] [PNG] [--label NAME=FILE ...] A.log B.log ...
//	fbdiag throughput [--format F] [--table NAME] [--all] [--x COL] [--y COLS] [--series COL ...]
//	                  [--mode M] [--input-table N] [--predict SIZE] [--knee SIZE] [--noise P] [PNG]
//	                  FILE|DIR|- ...
//	fbdiag collect [LIVE] [--out FILE [--force]] [--switches S] [--format F]
//	               [--top N] [--sort KEY] [--rules FILE] DATABASE
//	fbdiag backup [LIVE] [--log FILE] [--force] [GBAK] [--format F] [--top N]
//	              DATABASE BACKUP_FILE
//	fbdiag restore [LIVE] [--replace] [--log FILE [--force]] [GBAK] [--format F] [--top N]
//	               BACKUP_FILE DATABASE
//	fbdiag bench init [LIVE] --warehouses W [--jobs N] [--forced-writes on|off] [--out FILE [--force]]
//	                  [--format F] DATABASE
//	fbdiag bench run [LIVE] [RUN] [--out FILE [--force]] [--format F] DATABASE
//	fbdiag bench sweep [LIVE] (--buffers N,N... | --terminals N,N... | --warehouses N,N...)
//	                   [--runs R] [RUN] --out FILE [--runs-dir DIR] [--force] [--format F] DATABASE
//
//	PNG is --png DIR [CHARTS]; CHARTS is [--width PX] [--height PX] [--dpi N]
//	LIVE is [--server HOST[:PORT]|HOST/PORT] [--wire-crypt required|enabled|disabled] [--auth PLUGINS]
//	GBAK are gbak's switches, each named in the command's help (--no-gc is -g, --buffers N is -bu N…)
//	RUN is [--terminals N] [--warmup D] [--duration D] [--mode sp|client] [--home fixed|random] [--retries N]
//
// Every command reads files named on the command line, or standard input
// for "-", and writes to standard output. Options may come before or
// after the files; after "--" every argument is a file.
// 'fbdiag COMMAND --help' (or 'fbdiag help COMMAND') describes a command.
// With no command at all fbdiag writes the HTML report of the sample it
// carries (Firebird 3.0.11 gstat and gbak outputs, the seed articles'
// tables, a bench run) into ./fbdiag-report/ and prints where: 'go run ./cmd/fbdiag'
// shows the whole product; 'fbdiag --help' lists the commands.
//
// # Inputs
//
// All inputs are text as the tools print it. UTF-8 (with or without a
// BOM), UTF-16 (what PowerShell's > writes), CRLF and lone CR line
// endings and tabs are accepted, as is text copied from mail or web
// pages with lines before or after the tool's output. What a reader
// skipped, repaired or guessed is reported on standard error as
// "file:line: message" and the rest is still analysed.
//
// gstat input is the output of gstat (fbstat in Debian and Ubuntu
// packages) from Firebird 1.5 to 6.0, with any switches, or of the
// services manager's action_db_stats:
//
//	gstat -a -r DB > stats.txt            data, indices and record versions (best)
//	gstat -h DB > header.txt              header page only (transaction gaps)
//	fbsvcmgr host:service_mgr action_db_stats dbname DB \
//	    sts_data_pages sts_idx_pages sts_record_versions > stats.txt
//
// Two runs appended to one file are two snapshots, each analysed. The
// accepted forms and how each gstat field is read are in
// docs/gstat-input.md.
//
// gbak input is a verbose backup or restore log, best with the per-step
// statistics of -st tdrw (Firebird 2.5.5 and later):
//
//	gbak -c -v -st tdrw -y restore.log backup.fbk /data/db.fdb
//	gbak -b -v -st tdrw -y backup.log /data/db.fdb backup.fbk
//	fbsvcmgr host:service_mgr action_restore bkp_file backup.fbk \
//	    dbname /data/db.fdb res_stat tdrw verbose > restore.log
//
// Logs without -st, excerpts without the statistics header line and the
// wrapped counters of 3.0.11, 4.0.4 and 5.0.0 (Firebird issue #8027) are
// read too. gbak prints a step's message before doing the work, so fbdiag
// charges each step with the interval from its own line to the next;
// "created database", "started transaction" (restore), the backup's
// "readied database" and "closing file, committing, and finishing" come
// after the work, and their own line is their cost.
//
// throughput input is a result table (CSV, TSV, semicolon-separated,
// markdown or aligned text, also the tables inside an article) or the
// output of a benchmark tool, one run per file or several per file:
//
//	pgbench -T 60 -c 4 -j 2 bench > pgbench-scale10.txt
//	sysbench oltp_read_write --time=60 --report-interval=10 ... run > sysbench.txt
//	HammerDB's log with its "TEST RESULT : System achieved N NOPM" lines
//	go test -bench . > bench.txt           (the format benchstat reads)
//
// A benchmark run's size comes from a key=value line in its file
// (db_bytes=, scale=), a Go "key: value" line or sub-benchmark name, or the
// file name (pgbench-scale10.txt).
//
// bench run input is the result file of fbdiag bench run --out (JSON
// Lines: the run's summary, then one line per second; docs/bench-json.md).
// report draws its throughput over time and latency percentiles;
// throughput reads it as one run of tpmC at the database's size (db_bytes),
// with its warehouses, terminals and page buffers as settings: several
// runs are compared by the one their sweep varied (the size when the
// warehouses differ, else the page buffers or the terminals). The table
// bench sweep writes is a throughput table.
//
// # Commands
//
// gstat analyses each snapshot: the header figures (ODS and Firebird
// version, page size, buffers, forced writes, sweep interval, the OIT,
// OAT, OST and Next transactions and their gaps) and totals, the tables in
// the --sort order (size, records, versions or depth), the indices with
// warnings first, then biggest first, each with its depth, selectivity
// and duplicates and what it serves (a primary key's, a foreign key's, a
// unique constraint's, from the names Firebird gives them; "?" for a name
// of the user's choosing), and the warnings, critical first, each with
// its value, threshold, reason and advice (the exact statement, for the
// object it names), and the source of each rule once at the end. Text and
// markdown show the first --top N (20) tables, indices and warnings and
// say how many there are; --all shows every one. Names tied on the sort
// key are in natural order (RDB$PRIMARY2 before RDB$PRIMARY10); sizes are
// binary with IEC units. CSV is one table, --table tables (the default),
// indices, warnings, summary, encryption (gstat -e's page counts) or
// problems (the lines where gstat reported corruption or an error; a
// header row when there are none), its figures and words JSON's (kind
// primary_key where text says pk); --format openmetrics writes Prometheus
// metrics for node_exporter's textfile collector. --fail-on warning or --fail-on critical
// makes fbdiag exit 3 when a warning of that severity or worse exists,
// after printing the analysis (of what is printed: with openmetrics, of
// each database's last run). --rules FILE changes thresholds: "rule.key
// = value" lines (# starts a comment) or one JSON object {"rule.key":
// value}. A file that would make the rules say nonsense is refused with
// its line and why: an unknown key, a key set twice, a value that is no
// finite number, is negative, is no flag (0 or 1), share (0 to 1) or
// percentage (0 to 100) where the unit wants one, or a critical limit on
// the wrong side of its warning (index-deep.critical below
// index-deep.warning). --architecture (superserver, superclassic or
// classic), --connections N and --ram SIZE describe the server, which
// gstat does not show: the page cache's memory is then judged against
// the RAM.
//
//	$ fbdiag gstat --top 3 testdata/fb30/shop-gstat-a-r.txt
//	gstat analysis of testdata/fb30/shop-gstat-a-r.txt
//	Database              /var/lib/firebird/data/shop.fdb
//	ODS                   12.0
//	Firebird              3.0
//	Page size             8.00 KiB
//	Dialect               3
//	Page buffers          0 (server default)
//	Forced writes         on
//	Sweep interval        not printed (server default 20000)
//	Attributes            force write
//	gstat run             2026-12-02 14:09:54
//	Created               2026-12-02 14:09:44 (or restored)
//	OIT                   16 (oldest interesting)
//	OAT                   17 (oldest active)
//	OST                   17 (oldest snapshot)
//	Next                  18 (next transaction)
//	OAT − OIT             1
//	OST − OIT             1 (the sweep gap)
//	Next − OAT            1 (age of the oldest active transaction)
//	Next − OST            1
//	Sweep gap             0.0 % of the sweep interval
//	Transaction IDs left  281474976710637 of the ODS limit 281474976710655 (under 0.1 % used)
//	Tables                6
//	Indices               10
//	Records               682005
//	Back versions         30000
//	Size of tables        51.1 MiB
//	Size of indices       9.97 MiB (leaf pages)
//	Data pages            6545 (6203 primary, 342 secondary, 0 swept: a sweep skips swept pages)
//
//	Tables by size
//	table       records  versions  ver/rec  max ver  frag/rec  pages  fill      size  index size
//	ORDER_LINE   500000         0        0        0         0   4552  69 %  35.6 MiB    6.68 MiB
//	ORDERS       100000      5000     0.05        1         0    808  67 %  6.31 MiB    2.55 MiB
//	STOCK         50000     15000      0.3        1         0    464  78 %  3.62 MiB     248 KiB
//	3 of 6 tables shown (--all shows them)
//
//	Indices, those with warnings first
//	index           table     kind  depth  leaf   nodes     select     dup  max dup      size
//	ORDERS_DATE_D   ORDERS    ?         2   190  100000    0.00001   0.0 %        0  1.48 MiB
//	ORDERS_CARRIER  ORDERS    ?         2    75  100000     0.0909  99.9 %    33333   600 KiB
//	RDB$PRIMARY2    CUSTOMER  pk        2    37   30000  0.0000333   0.0 %        0   296 KiB
//	3 of 10 indices shown (--all shows them)
//	kind: pk, fk, unique from the names Firebird gives constraint indices (RDB$PRIMARYn, RDB$FOREIGNn,
//	  RDB$n); ? a name of the user's choosing, plain or a named constraint's (fbdiag collect reads the
//	  catalogue)
//
//	Warnings (9)
//	WARNING  index-low-selectivity  index ORDERS_CARRIER on ORDERS: 9.1 % > 1.0 %
//	         11 distinct values in 100000 keys: a lookup on one value returns 9090 rows on average (9.1%
//	         of the keys), on the most common value 33334, reading about 808 of the table's 808 data
//	         pages (clustering ratio 0.09); the index costs 75 leaf pages (600 KiB) and an entry written
//	         on every insert, delete and key update; a plain index or the index of a named constraint
//	         (the gstat text cannot tell; fbdiag collect reads the catalogue)
//	         do: if no query plan uses it: DROP INDEX ORDERS_CARRIER; (Firebird refuses if it serves a
//	         constraint: a foreign key keeps its index while the constraint exists)
//	WARNING  index-sparse  index ORDERS_DATE_D on ORDERS: 99.5 % > 80.0 %
//	         99% of 190 leaf pages under 60% full; a plain index or the index of a named constraint (the
//	         gstat text cannot tell; fbdiag collect reads the catalogue)
//	         do: ALTER INDEX ORDERS_DATE_D ACTIVE; (rebuilds it while it stays active)
//	...
//
// gstat diff compares two snapshots of one database (two files, or the
// first and last run of one file), the first (OLD) being the baseline:
// records, back versions and bytes gained or lost per table (a relative
// change is (new − old) / old), back versions piling up or collected,
// indices whose b-tree grew a level, tables and indices created or
// dropped, and the header counters. The transaction rate is the Next
// transaction delta over the time between the two "Gstat execution time"
// lines; from it the age of the oldest active transaction is estimated in
// each snapshot, within the bounds the headers set (it started after the
// creation date, and before or after the first snapshot by its number):
// an estimate outside them is left out. The health warnings that
// appeared, were resolved or changed severity are listed; across a
// Firebird 6 upgrade the average fill does not compare (firebird#8816)
// and a warning says so. A rate a day, and the transactions an hour,
// need snapshots an hour apart (history-rate.min_span). Text shows the 20 tables and indices that
// changed most and the 20 most severe warning changes, --all every one; CSV is one table (--table); the JSON
// contract is docs/gstat-history-json.md.
//
//	$ fbdiag gstat diff testdata/fb30/shop-gstat-a-r.txt testdata/fb30/shop-gstat-r-later.txt
//	gstat diff: testdata/fb30/shop-gstat-a-r.txt → testdata/fb30/shop-gstat-r-later.txt
//	Between                0:04:38
//	Size, old              61.1 MiB (tables + indices)
//	Size, new              60.6 MiB
//	Size change            -472 KiB
//	Size change, relative  -0.8 %
//	Transactions           8 (Next transaction moved)
//	Transactions an hour   not shown (0:04:38 of counters, under 1:00:00)
//	...
//	Tables, those that changed first, biggest size change first
//	table       status     records  Δ records  versions  garbage       Δ size  Δ size %  a day
//	ORDERS      changed      95000      -5000         0  collected   -320 KiB    -5.0 %
//	STOCK       changed      50000          0         0  collected  -64.0 KiB    -1.7 %
//	CUSTOMER    changed      30000          0         0  collected        0 B    +0.0 %
//	...
//
// gstat trend orders snapshots (files, or folders of them) by their
// execution time and shows the size of the database (tables plus
// indices) and of each table over time, fastest growing first, each
// with a linear and an exponential least-squares fit (the one with the
// higher R² is named). Snapshots whose size adds up other things (gstat
// -d without indices, -s with the system tables, -h without a size,
// another database) are left out of the sizes and listed with the
// reason. With --until SIZE (100GB, 512MiB: GB means GiB) it forecasts
// when the database and each table reach SIZE, with the 95% interval of
// the fit: from 3 comparable snapshots or more (else "refused"), and no
// further past the last one than the snapshots span (else "unreliable",
// with the reason). A snapshot without an execution time is dated by its
// file's modification time, said on standard error; files of a folder
// that are not gstat output are skipped, said on standard error.
// --format openmetrics writes the latest snapshot's figures and the rates
// a day. Its --png DIR writes history-size.png, history-versions.png and,
// with a forecast date, history-forecast.png.
//
//	$ fbdiag gstat trend --top 3 testdata/fb30/shop-gstat-a-r.txt testdata/fb30/shop-gstat-r-later.txt
//	gstat trend over 2 snapshots of /var/lib/firebird/data/shop.fdb
//	Snapshots                  2
//	First                      2026-12-02 14:09:54
//	Last                       2026-12-02 14:14:32
//	Span                       0:04:38
//	...
//	Tables, fastest growing first
//	table           size  Δ size  Δ size %  a day  % a day  fit     R²
//	CUSTOMER    3.06 MiB     0 B    +0.0 %                  linear
//	DOCS        2.56 MiB     0 B    +0.0 %                  linear
//	ORDER_LINE  35.6 MiB     0 B    +0.0 %                  linear
//	3 of 6 tables shown (--all shows them)
//	...
//
// rules lists every health rule gstat applies: its id, what it judges,
// the severities it can raise, the Firebird versions (ODS) and gstat
// switches it needs, the advice its warnings give, and each threshold with
// its unit and the source it comes from ("[U]" marks a fbdiag default, with
// its reasoning): the rules, then the thresholds, one block each. With
// --rules FILE the overridden values are shown. CSV writes the table rules
// or, with --table thresholds, the thresholds. The whole list is
// docs/rules.md.
//
//	$ fbdiag rules
//	Health rules
//
//	oat-stuck  database  info/warning/critical
//	    what: Next - OAT: a transaction has been active for many transactions and blocks garbage
//	    collection (information on a read-only database, whose header does not move)
//	    applies to: all versions; gstat -h
//	    advice: find the transaction in MON$TRANSACTIONS (ODS 11.1+) and end it: fbdiag collect names
//	    its attachment and the statement that ends it (DELETE FROM MON$ATTACHMENTS, which rolls its work
//	    back); an older ODS has no MON$ tables: find the client that keeps it open
//	...
//
// gbak reports a log's outcome and totals, gbak's errors and warnings
// (the first 100 in text and markdown, every one with --all or in CSV's
// findings table), its phases with their share of the total, each
// table's data (records, time, records per second, page I/O) and each
// index build in natural order of their names, and every step, the
// slowest first: the --top of them (10 by default) in text and markdown,
// all with --all or in CSV.
// Durations read "12.345 s" under a minute and h:mm:ss above. An unknown
// figure is "?" in the headline and an empty cell in the tables. CSV is
// one table: the steps, or the one --table names (phases, tables,
// indices, summary, findings; a header row when the log has none, as a
// backup has no index builds).
//
//	$ fbdiag gbak --top 3 testdata/fb30/shop-gbak-restore-v-st.log
//	gbak restore: testdata/fb30/shop-gbak-restore-v-st.log
//	Outcome      completed
//	Total time   35.170 s
//	Page reads   10944
//	Page writes  8373
//	Statistics   TDRW
//
//	Phases
//	phase     steps  unknown      time   share  reads  writes
//	open          6        0   0.094 s   0.3 %      0     669
//	metadata    120        0   0.053 s   0.2 %     54     183
//	data          6        0  34.207 s  97.3 %      8    4378
//	indices      12        0   0.799 s   2.3 %  10841    3133
//	finish        6        1   0.017 s   0.0 %     41      10
//	unknown: steps whose cost the log does not give (the last line, lines missing).
//
//	Table data
//	table       records  ignored      time  records/s  reads  writes
//	CUSTOMER      30000            1.463 s      20506      2     397
//	DOCS           2000            0.454 s       4405      0       0
//	ORDER_LINE   500000           24.882 s      20095      2    3322
//	ORDERS        95000            4.232 s      22448      2     659
//	STOCK         50000            3.176 s      15743      0       0
//	WAREHOUSE         5            0.000 s                 2       0
//
//	Index builds
//	index              time  reads  writes  state
//	CUSTOMER_LAST   0.037 s      0      24  ok
//	...
//	Steps, slowest first
//	line  step             phase     start      time  reads  writes
//	  77  data ORDER_LINE  data    3.747 s  24.882 s      2    3322
//	 132  data ORDERS      data   28.632 s   4.232 s      2     659
//	  68  data STOCK       data    0.569 s   3.176 s      0       0
//	3 of 150 steps shown (--all shows them)
//	A step's cost is the interval from its line to the next: gbak prints a step, then does it
//	  ("created database", "started transaction", a backup's "readied database" and "closing file" come
//	  after the work: their own line is their cost).
//
//	Errors and warnings (0)
//	none
//
// A log that ends inside a table's data (the server died while the table
// was loading, or the log was cut) bounds that table from below with its
// progress lines: a finding "cut-short data EVENTS: The log ends inside
// this step: it took at least 5.300 s, 30000 records logged", "at least"
// beside its time in the tables and "≥" in the chart, lower_bound in
// JSON, bound true in CSV. --fail-on failed makes a nightly restore check fail: exit 3 when
// the outcome is failed or incomplete, after the analysis.
//
//	fbdiag gbak --fail-on failed restore.log >check.txt || mail -s 'restore failed' dba <check.txt
//
// gbak compare matches the steps of two or more logs by kind and object
// name (a step naming a path, "created database …/deepA.fdb", matches
// whatever the path) and sets their times side by side. The first log,
// or the side --base names, is the baseline, as in benchstat: ratio =
// other / baseline, change = (other − baseline) / baseline, and the
// verdict says slower or faster. Each file named on the command line is
// a run labelled by the part of its name that differs from the others'
// (restore-balanced.log and restore-high-performance.log: balanced and
// high-performance), and numbered runs (remote-run1.log … remote-run5.log,
// service-run1.log …) are the repeats of their side (remote, service);
// --label NAME=FILE, repeated, groups several runs under one label as
// well, each side then summarised by its median and the sides
// compared with a Mann-Whitney U test (alpha 0.05; with fewer than 4 runs
// a side no difference can be shown, and the output says so; ~ marks a
// difference the test does not find significant). Every side has its
// column; CSV is the steps, or the table --table names (totals, runs,
// ranges, only, summary, findings; ranges and only are a header row when
// no side has several runs or every step is on every side).
//
//	$ fbdiag gbak compare --top 2 testdata/seeds/restore-balanced.log testdata/seeds/restore-high-performance.log
//	gbak compare: balanced, high-performance (baseline balanced)
//	Baseline                                            balanced
//	Runs                                                2 in 2 sides
//	Last timestamp, high-performance / balanced         ×0.593 (-40.7 %, faster)
//	Span of matched steps, high-performance / balanced  ×0.687 (-31.3 %, faster)
//
//	Runs
//	label             file                      outcome     total  last time  matched  unmatched
//	balanced          restore-balanced.log      incomplete           3:41:44        5          0
//	high-performance  restore-high-performanc…  incomplete           2:11:34        5          0
//	incomplete logs (no closing line): restore-balanced.log, restore-high-performance.log; their last
//	  timestamps are when the last line shown was printed, not the run's total
//
//	Totals (ratio = high-performance / balanced)
//	step                             balanced  high-performance   ratio   change  verdict
//	last timestamp (log incomplete)   3:41:44           2:11:34  ×0.593  -40.7 %  faster
//	span of matched steps             1:02:55           0:43:13  ×0.687  -31.3 %  faster
//	span of matched steps: from the first step found in every run to the end of the last one.
//
//	Steps, slowest first (ratio = high-performance / balanced)
//	step                                    balanced  high-performance   ratio   change  verdict
//	index INDMF_TAG_PLC_DATA_DT_D (build)    0:20:58           0:10:23  ×0.495  -50.5 %  faster
//	index INDMF_TAG_PLC_DATA_TAG_D (build)   0:17:17           0:10:45  ×0.622  -37.8 %  faster
//	2 of 5 steps shown (--all shows them)
//	...
//
// These two logs are excerpts without gbak's statistics header, so the
// reader says on standard error how it read their columns:
//
//	testdata/seeds/restore-balanced.log:1: no statistics header line: read 4 leading numbers as the columns TDRW, guessed from their form
//
// throughput answers one of four questions, chosen from the input or with
// --mode: degradation (throughput against database size: linear,
// log-linear and power fits with R², loss per doubling, a leave-last-out
// check on the largest size, a prediction at --predict SIZE and the cliff
// test at --knee SIZE, e.g. the server's RAM: a cliff is a significant
// step for the worse of at least 10% of the trend, and a size with
// leverage above 0.5, one far point that fixes the curves, is named;
// without them the prediction is at twice the largest size and the cliff
// test runs where the sizes jump 4× or more with two sizes on each side,
// as in the report), sweep (throughput against a setting such as page
// buffers: the best setting of each series and those within --noise of
// it), ab (named configurations, each against the first, the baseline:
// ratio = other / baseline, change = (other − baseline) / baseline, and
// faster or slower; with repeated runs medians and a Mann-Whitney test)
// and load (load speed in MiB/s from a size and a load time column; a
// time named as a latency, latency_ms or p95_ms, is not one). The loss
// per doubling of a time (a latency) is its rise. Series of different
// units (tps and qps, tps and latency_ms) get a chart each, series of very
// different scale a panel each.
// Sizes are binary as Firebird counts them (GB means GiB) and printed with
// IEC units. Columns are chosen by name or 1-based index (--x size_gb
// --y ops_per_s); by default x is the first size column and y every
// throughput column (tps, ops/s, NOPM...), each a series. --input-table N
// picks one table of a file holding several. Several result tables are
// one experiment when their x measures the same thing (sizes in any unit,
// one setting, clients or threads), each a series; a table of another
// experiment than the first input's (a page-buffer sweep beside a
// degradation, a second load table) is left out with a notice, and fbdiag
// report gives each file its own section. A folder stands for the
// result files in it (natural order: run2 before run10, so run1 is the
// baseline; other files are skipped with a line on standard error), so a
// folder of pgbench runs is one argument. Text
// shows the first 20 measurements (--all every one); CSV writes one table,
// the measurements unless --table names another (series, models, params,
// holdout, prediction, knee, leverage, settings, ab, summary). Except with
// --format json, which carries them, notices go to standard error as
// "file:line: message"; the warnings are printed under the tables (with
// CSV, on standard error prefixed "fbdiag: warning:").
//
//	$ fbdiag throughput --knee 16GB --predict 2TB testdata/seeds/degradation-throughput-sata.csv
//	degradation-throughput-sata.csv (degradation): ops_per_s against size_gb (GiB)
//	first to last size      -65.8 % (9.04 GiB → 1.77 TiB)
//	lost per size doubling  13.4 % (power fit, R² 0.992)
//	predicted at 2.00 TiB   167 (95 % interval 158–176, power fit; extrapolated 1.13× past the largest
//	                        size, which alone sets the curve (leverage 0.929); its leave-last-out check
//	                        missed by +14.2 %, outside its 95 % interval)
//	step at 16.0 GiB        +0.8 % (no cliff, p=0.541)
//	...
//	Prediction at 2.00 TiB
//	series     model            at  predicted  95 % from   to
//	ops_per_s  linear     2.00 TiB        132       23.7  240
//	ops_per_s  loglinear  2.00 TiB        155        123  187
//	ops_per_s  power      2.00 TiB        167        158  176
//	the 95 % prediction interval is where a new measurement at that size should fall if the curve holds
//
//	Cliff test
//	series           at  trend  below  above  step  of the trend      p  significant  cliff
//	ops_per_s  16.0 GiB  power      4      8  3.53        +0.8 %  0.541  no           no
//	no cliff at 16.0 GiB: the step of +0.8 % beyond the power trend is not significant (p=0.541); the
//	  1.77 TiB point has leverage 0.979 (above 0.5): it alone sets the trend
//	...
//
//	$ fbdiag throughput testdata/seeds/power-plan-tpcc.tsv
//	power-plan-tpcc.tsv (ab): tpcc_score against power_plan
//	High performance vs Balanced  +24.6 % (×1.25, faster; 1 run each, no test)
//	...
//	Configurations against the first (the baseline)
//	series      configuration     n  median    min    max  ±  ratio   change            p (adjusted)
//	tpcc_score  Balanced          1   17029  17029  17029                     baseline
//	tpcc_score  High performance  1   21226  21226  21226     ×1.25  +24.6 %  faster
//	High performance vs Balanced: ×1.25, +24.6 % faster (n=1+1, no test)
//	...
//
// report writes one self-contained HTML page, DIR/index.html (--out,
// ./fbdiag-report by default), with one PNG per chart beside it, from
// any mix of inputs: each file's kind is recognised from its content,
// never its name, and folders are walked. The page has a summary (the
// headline figures, the critical findings and warnings, worst first),
// then a section per gstat run, gbak log, comparison of two restores,
// throughput table and benchmark tool. Two or more gstat snapshots of
// the same database (same Database path) with execution times add a
// History section: what gstat diff says of the first and the last
// (tables changed, back versions collected or piling up, the
// transaction rate) and what gstat trend says of them all, with its
// charts; runs made with other
// gstat switches (-h, -i, without -r) are left out of it and named. An
// index.html fbdiag did not write is never overwritten (exit 1). A file
// holding several kinds (an article with its result tables and a gbak
// excerpt) is cut into its parts, each analysed as its kind and named
// FILE#table-1, FILE#gbak-2; the prose around them is skipped and
// counted. --width, --height and --dpi size the charts (1200×675 px at 150 DPI by
// default). The page and the detection rules are described in
// docs/report.md.
//
//	fbdiag report --out /tmp/shop-report testdata/fb30
//	wrote /tmp/shop-report/index.html
//	10 inputs, 11 sections, 18 charts; 0 critical, 30 warnings
//	  warning  ORDERS_CARRIER (ORDERS): 33333 records share one key value: deletes and garbage collect…
//	  ...
//
// detect prints what each file would be read as in a report, and why:
// the line or table header that decided.
//
//	$ fbdiag detect testdata/seeds/power-plan-tpcc.tsv testdata/fb30/shop-gstat-h.txt
//	file                                kind        why
//	testdata/seeds/power-plan-tpcc.tsv  throughput  tab-separated table with 2 columns, header line 1: "power_plan      tpcc_score"
//	testdata/fb30/shop-gstat-h.txt      gstat       line 3: "Gstat execution time Wed Dec  2 14:14:2…"
//
// A file cut into parts is listed part by part, with its lines:
//
//	$ fbdiag detect testdata/mixed/003_f44fd1243848db85.txt
//	file                                             kind        first line  last line  why
//	testdata/mixed/003_f44fd1243848db85.txt#table-1  throughput          15         17  tab-separated table with 2 columns, header line 15: "Plan de energía Rendimiento TPC-C (cuan…"
//	testdata/mixed/003_f44fd1243848db85.txt#table-2  throughput          23         25  tab-separated table with 2 columns, header line 23: "Plan de energía Tiempo de restauración …"
//	testdata/mixed/003_f44fd1243848db85.txt#gbak-1   gbak                35         39  line 35: "gbak: 9529.339 1230.343 5028900 346529 …"
//	testdata/mixed/003_f44fd1243848db85.txt#gbak-2   gbak                45         52  line 45: "gbak: 5301.785 615.045 5028900 346529 a…"
//	testdata/mixed/003_f44fd1243848db85.txt: 4 parts of 2 kinds; 22 lines of prose around them skipped
//	  (blank lines not counted).
//
// # Charts (--png)
//
// gstat, gbak, gbak compare, throughput and gstat trend take --png DIR:
// besides the analysis on standard output, they write the charts of that
// analysis into DIR (created when missing) as PNG files, the same charts
// the report shows, and name each file written on standard error.
// --width, --height and --dpi size them as for report. The files are
// named KIND-INPUT.png: tables-, indices- and fill-FILE.png for gstat,
// restore-timeline-LOG.png for gbak (backup-timeline-LOG.png for a
// backup's log), restore-comparison-compare.png for gbak compare
// (backup-comparison-compare.png when every log is a backup's), and
// size-throughput-, sweep-, ab- or load-speed-FILE.png for throughput.
// fbdiag marks the charts it writes (a PNG text chunk "Software: fbdiag")
// and replaces a file of that name in DIR only when it carries the mark;
// any other file of that name stops the command with exit status 1
// before a chart is written, so a slide of your own is never
// overwritten.
//
//	fbdiag gstat --png charts --width 1600 --height 900 testdata/fb30/shop-gstat-a-r.txt
//	...                                    (the analysis, on standard output)
//	wrote charts/tables-shop-gstat-a-r.txt.png
//	wrote charts/indices-shop-gstat-a-r.txt.png
//	wrote charts/fill-shop-gstat-a-r.txt.png
//
// # Output formats
//
// --format text (the default) prints aligned tables that fit a
// 100-column terminal; long names are clipped with "…". --format csv
// prints one table, every row of it: the one --table names (each
// command's --help lists its tables), else the command's main one. It
// has the columns text leaves out to fit the terminal (index size,
// unique keys, clustering ratio), and JSON's figures unrounded, with the
// unit in the column name (size_bytes, fill_share) and a null an empty
// cell; with several gstat snapshots a first column, snapshot, names
// each row's. --format markdown prints each table under a "###" title.
// --format json prints the analysis as a documented contract: snake_case
// keys, and a value the input did not give is null, never a guessed
// zero. gstat writes one JSON document per snapshot (a stream for
// several); the contracts are in docs/gstat-json.md,
// docs/gstat-history-json.md, docs/gbak-json.md, docs/throughput-json.md
// and docs/bench-json.md.
//
// Names come from the inputs and may be hostile. Text, CSV and markdown
// show control characters and bidi controls as Go escapes (a table
// named ESC]0;x BEL prints as \x1b]0;x\x07, U+202E as \u202e), so no
// name can retitle, recolour or rewrite the terminal. A CSV text cell
// that starts with =, +, -, @, a tab or a carriage return gets a single
// quote in front, so a spreadsheet shows it instead of running it as a
// formula; numbers such as -12.5 stay numbers.
// JSON keeps every name exact (a bidi control is written as the JSON
// escape \u202e, the same character). The HTML report isolates a word
// holding a bidi control in <bdi>.
//
//	$ fbdiag gstat --format json testdata/fb30/shop-gstat-h.txt
//	{
//	  "file": "testdata/fb30/shop-gstat-h.txt",
//	  "report": 0,
//	  "header": {
//	    "database": "/var/lib/firebird/data/shop.fdb",
//	...
//
// # Live server
//
// collect, backup and restore talk to a running Firebird server (2.5 or
// later) through the Services API with a pure-Go driver: no fbclient, gstat
// or gbak is needed where fbdiag runs. --server is HOST, HOST:PORT or
// Firebird's HOST/PORT (localhost:3050 by default); --wire-crypt (enabled
// by default, as Firebird's) and --auth choose how the connection is
// protected. DATABASE and BACKUP_FILE are the server's paths or aliases,
// read and written by the server process. Every file they write is one the
// offline commands read, and the output is what those commands print for
// it:
//
//   - collect takes a gstat snapshot (--switches, "-a -r" by default) into
//     --out FILE (DBNAME-YYYYMMDD-HHMMSSZ.gstat.txt by default), reads the
//     MON$ tables (oldest active transaction with its owner, page I/O, each
//     index's stored selectivity, the login plugin and the wire) into
//     FILE.mon.json, and prints what 'fbdiag gstat FILE' prints followed by
//     the live figures; stored selectivities more than 2x off the gstat
//     figures are marked stale. Its CSV tables are gstat's and snapshot,
//     transactions, io and selectivity (--table). --format openmetrics adds to the gstat
//     families fbdiag_oldest_active_age_seconds (0 with no transaction in
//     another attachment), fbdiag_attachments and
//     fbdiag_indices_stale_statistics.
//   - backup runs gbak -b -v -st tdrw on the server and writes its log
//     (--log FILE, BACKUPNAME-backup-YYYYMMDD-HHMMSSZ.log by default), then
//     prints the log's timeline as 'fbdiag gbak LOG' does.
//   - restore does the same for gbak -c. --replace replaces an existing
//     DATABASE (gbak -rep) once the new one is complete.
//
// Nothing the user has is lost. The server writes a backup or restores a
// database under a temporary name beside the target, and fbdiag renames it
// only after gbak reported success (for --replace: the original, which
// must not be in use, is shut down, renamed aside, replaced and deleted);
// a failed or interrupted run leaves nothing and says so. An existing
// BACKUP_FILE needs --force; an existing --out (or its .mon.json) or --log
// file is refused before connecting unless --force. The renames happen on
// the server's filesystem, so this needs the server on this machine and
// its folder writable by this user; for a remote server backup needs
// --force (gbak then writes the file directly) and restore --replace is
// refused. Ctrl-C cancels a backup on the server; a log that ends early is
// kept as LOG.partial. On a terminal, standard error shows the phase, the
// current step, the time elapsed and, with an earlier log, the time left.
// Failures are one line naming the step, the object and the server
// ("fbdiag: cannot connect to localhost:3050: wrong user name or
// password"). The details and the JSON contracts are in docs/live.md.
//
//	fbdiag collect --out shop.gstat.txt /var/lib/firebird/3.0/data/shop.fdb
//	fbdiag backup --no-gc --log shop-backup.log /var/lib/firebird/3.0/data/shop.fdb /var/lib/firebird/3.0/data/shop.fbk
//	fbdiag restore --replace --buffers 2048 /var/lib/firebird/3.0/data/shop.fbk /var/lib/firebird/3.0/data/shop.fdb
//
// # Workload (bench)
//
// bench produces the results the other commands analyse: the seed
// articles' experiment (IBSurgeon's TPC-C toolkit, throughput at growing
// sizes and page buffers) on a live server, through the same connection as
// collect (LIVE, the same credentials). It is TPC-C-like: TPC-C's nine
// tables and five transactions, no keying or think time, nothing audited.
//
//   - bench init creates DATABASE if the server finds no such file (page
//     size 4096; a database with tables of its own is refused), creates
//     the tables with their keys and the spec's two
//     secondary indices, and loads warehouses 1..W with the spec's
//     cardinalities (ITEM 100,000; per warehouse STOCK 100,000, DISTRICT 10,
//     CUSTOMER, HISTORY and ORDERS 30,000, NEW_ORDER 9,000, ORDER_LINE about
//     300,000). The server generates the rows: PSQL procedures with RAND(),
//     one call per district (customers, history, orders, lines and a tenth
//     of the stock interleaved row by row), --jobs warehouses at once. Each
//     call commits with its row in BENCH_PART, so an interrupted init
//     resumes and loaded warehouses are skipped. The rows are then counted
//     and TPC-C's twelve consistency conditions checked (exit 1 if one
//     fails). --out FILE writes the load history as a table fbdiag
//     throughput reads in load mode.
//   - bench run drives --terminals connections (default 4) through New-Order
//     45 %, Payment 43 %, Order-Status, Delivery and Stock-Level 4 % each
//     (a shuffled deck of 100 per terminal), each terminal on a fixed home
//     warehouse (--home random: a warehouse per transaction), as stored
//     procedure calls (--mode client: plain SQL), READ COMMITTED NO WAIT.
//     A conflict is rolled back, retried after a jittered back-off (up to
//     --retries) and counted apart; the spec's 1 % of New-Orders with an
//     unused item are rolled back and counted as rolled back. Only
//     operations that end inside the measured window (--duration after
//     --warmup) count: tpmC is the New-Orders completed in it (committed,
//     or rolled back by design, as TPC-C counts them) × 60 / its seconds.
//     Per second and kind it keeps the counts and a latency
//     histogram (2 % buckets: p50 to p99), judges whether throughput was
//     steady, and records the server (version, architecture, page size,
//     page buffers, forced writes), the database size and MON$IO_STATS at
//     the window's edges, and its own CPU time. Text output is go-tpc's
//     summary (a line per kind, then tpmC); --out FILE writes the result
//     file (the JSON summary, then a JSON line per second), which detect,
//     report (throughput over time with the warm-up shaded, latency
//     percentiles) and throughput read. Ctrl-C writes what was measured,
//     marked partial.
//   - bench sweep repeats bench run R times (--runs, default 3) at each
//     value of one setting: page buffers (set in the header through the
//     Services API before each run, put back at the end), terminals, or
//     warehouses (loaded between steps, so the database grows). It writes
//     one CSV table, rewritten after every run, that fbdiag throughput
//     reads as a sweep (best setting, the others told apart or not) or, for
//     warehouses, a degradation (tpmC against size), and prints that
//     analysis.
//
// The JSON contracts are in docs/bench-json.md, the workload and a small
// replay of the articles' experiment in docs/bench.md.
//
//	fbdiag bench init --warehouses 4 --out load.csv /var/lib/firebird/3.0/data/tpcc.fdb
//	fbdiag bench run --terminals 4 --warmup 30s --duration 5m --out run.jsonl /var/lib/firebird/3.0/data/tpcc.fdb
//	fbdiag bench sweep --buffers 256,512,1024,2048 --runs 3 --out buffers.csv /var/lib/firebird/3.0/data/tpcc.fdb
//
// The replay's page-buffers sweep (two runs per setting on a busy 2-core
// machine) reads:
//
//	$ fbdiag throughput testdata/bench/buffers.csv
//	buffers.csv (sweep): tpmc against page_buffers
//	best page_buffers                  512 (median 5178)
//	worst setting off the best         15.0 % (at 256)
//	settings told apart from the best  0 of 3 (3 with too few runs to tell)
//	...
//	Settings against the best
//	series  page_buffers  n  median   min   max  vs best  p (adjusted)
//	tpmc             256  2    4403  2565  6240  -15.0 %         1.000  too few runs
//	tpmc             512  2    5178  3867  6489   +0.0 %                best
//	tpmc            1024  2    4920  4875  4965   -5.0 %         1.000  too few runs
//	tpmc            2048  2    5097  3615  6579   -1.6 %         1.000  too few runs
//	best 512 (5178); worst 256 (15.0 % off the best); not told apart from the best, with too few runs
//	  for the test to tell: 256, 1024, 2048
//	...
//	6 of 8 runs were not steady by fbdiag bench's own verdict on their window (rule
//	  bench-steady-state: throughput drifted or varied more than it allows):
//	  testdata/bench/buffers.csv:2, :3, :5, :7, :8, :9; the analysis counts them as if steady: a longer
//	  --warmup and --duration on a quiet machine reach a steady state
//
// # Environment
//
// fbdiag never takes a password on its command line and never prints one.
// Run gstat, gbak and fbsvcmgr with ISC_USER and ISC_PASSWORD in the
// environment rather than -user and -password, which other users of the
// machine can read in the process list. collect, backup, restore and bench take
// their credentials from the same two variables (ISC_USER defaults to
// SYSDBA); without ISC_PASSWORD they ask for it on the terminal without
// echo, and stop with one line when standard input is not a terminal.
// There is no password option. On Debian the administrator's are in
// /etc/firebird/3.0/SYSDBA.password:
//
//	set -a; . /etc/firebird/3.0/SYSDBA.password; set +a
//
// # Exit status
//
// 0 when the analysis was printed (and the report or the charts
// written), 1 when an input could not be read or held nothing fbdiag
// recognises, or a file in the output folder is not fbdiag's, 2 for a mistake in the command line
// (with a hint to run 'fbdiag --help'), and 3 when gstat --fail-on or
// gbak --fail-on matched (the analysis is printed all the same). Errors go to standard
// error after "fbdiag: ", naming the file, and the line where there is
// one, as in "fbdiag: <stdin>: no gstat output found".
package main
