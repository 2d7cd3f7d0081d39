#!/bin/bash
# pgbench-select-progress.txt and pgbench-tpcb-progress.txt: two runs of PostgreSQL
# 15.18 (Debian 12's postgresql package) on the project's 2-core
# machine, shared with other work (load average 5.7 then), with their
# progress reported every 2 s. The TPC-B-like run's throughput fell
# from some 2,300 to 1,100 tps halfway: fbdiag judges it not steady by
# its interval reports (rule bench-steady-state), the select-only run
# steady. Run as root on a machine with the postgresql package.
set -eu
pg_ctlcluster 15 main start
su postgres -c "createdb bench && /usr/lib/postgresql/15/bin/pgbench -i -s 5 -q bench"
su postgres -c "/usr/lib/postgresql/15/bin/pgbench -c 4 -j 2 -T 30 -P 2 bench" > pgbench-tpcb-progress.txt 2>&1
su postgres -c "/usr/lib/postgresql/15/bin/pgbench -S -c 2 -j 2 -T 20 -P 2 bench" > pgbench-select-progress.txt 2>&1
