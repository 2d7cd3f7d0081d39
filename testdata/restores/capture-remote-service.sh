#!/bin/bash
# Real repeated gbak restores for fbdiag issue 13 (item 14): the corpus
# shop backup restored 5 times over the remote protocol (localhost:) and 5
# times through the service manager (-se), interleaved, one target path.
set -u
. /work/env.sh
cd /tmp/h13/cap/restore
R=$(cat ../rand)
T=/var/lib/firebird/3.0/data/h13-cmp-$R.fdb
for run in 1 2 3 4 5; do
  gbak -c -v -st tdrw -y restore-remote-run$run.log /tmp/h13/cap/restore/shop.fbk localhost:$T
  echo "$(date +%T) remote run$run rc=$?" >> log
  echo "CONNECT 'localhost:$T'; DROP DATABASE;" | isql-fb -q >> create.out 2>&1
  gbak -se localhost:service_mgr -c -v -st tdrw /tmp/h13/cap/restore/shop.fbk $T > restore-service-run$run.log 2>&1
  echo "$(date +%T) service run$run rc=$?" >> log
  echo "CONNECT 'localhost:$T'; DROP DATABASE;" | isql-fb -q >> create.out 2>&1
done
echo done-se >> log
