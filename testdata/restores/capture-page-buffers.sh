#!/bin/bash
# Real repeated gbak restores for fbdiag issue 13 (item 14, sweep): the
# corpus shop backup restored through the service manager with page
# buffers (-bu) 64, 256, 1024, 4096 and 16384, 5 runs each, interleaved.
set -u
. /work/env.sh
cd /tmp/h13/cap/restore
R=$(cat ../rand)
T=/var/lib/firebird/3.0/data/h13-bu-$R.fdb
for run in 1 2 3 4 5; do
  for bu in 64 256 1024 4096 16384; do
    gbak -se localhost:service_mgr -c -v -st tdrw -bu $bu /tmp/h13/cap/restore/shop.fbk $T > restore-bu$bu-run$run.log 2>&1
    echo "$(date +%T) bu$bu run$run rc=$?" >> log
    echo "CONNECT 'localhost:$T'; DROP DATABASE;" | isql-fb -q >> create.out 2>&1
  done
done
echo done-bu >> log
