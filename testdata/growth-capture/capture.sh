#!/bin/bash
# Real growth series for fbdiag issue 13 (items 15-17): a small shop
# database grows by ORDER_LINE batches; gstat -a -r every 10 minutes, a -d
# and a -h between; a transaction held open from ~5 to ~35 minutes.
set -u
. /work/env.sh
cd /tmp/h13/cap/grow
R=$(cat ../rand)
DB=/var/lib/firebird/3.0/data/h13-grow-$R.fdb
echo "$DB" > db
{ echo "CREATE DATABASE 'localhost:$DB' PAGE_SIZE 8192;"; cat /work/wt/h13-stats/testdata/live/shop.sql; } | isql-fb -q > create.out 2>&1
snap() { fbstat $1 localhost:$DB > "$2" 2>&1; echo "$(date +%T) $2" >> log; }
grow() { # $1 = first order id
  isql-fb -q localhost:$DB > /dev/null 2>>grow.err <<SQL
SET TERM ^;
EXECUTE BLOCK AS DECLARE i INTEGER = $1; DECLARE j INTEGER;
BEGIN
  WHILE (i < $1 + 4000) DO BEGIN
    INSERT INTO ORDERS VALUES (:i, MOD(:i, 3000), MOD(:i, 5), DATEADD(:i SECOND TO TIMESTAMP '2014-01-01 00:00:00'), MOD(:i, 10));
    j = 1;
    WHILE (j <= 5) DO BEGIN INSERT INTO ORDER_LINE VALUES (:i, :j, MOD(:i * 7 + :j, 5000), MOD(:i, 9999) / 100.0, 'dist-info-' || :j); j = j + 1; END
    i = i + 1;
  END
END^
SET TERM ;^
COMMIT;
UPDATE STOCK SET S_QUANTITY = S_QUANTITY + 1 WHERE S_I_ID < 200;
COMMIT;
SQL
}
snap "-a -r" grow-00-a-r.txt
sleep 300
# a reader that keeps its transaction open (snapshot isolation) until told
mkfifo hold.fifo
( isql-fb -q localhost:$DB < hold.fifo > hold.out 2>&1 ) &
exec 7>hold.fifo
echo "SET TRANSACTION SNAPSHOT; SELECT COUNT(*) FROM WAREHOUSE;" >&7
echo "$(date +%T) open transaction" >> log
sleep 300
grow 100000; snap "-a -r" grow-10-a-r.txt
sleep 270
snap "-d" grow-15-d.txt
sleep 300
grow 200000; snap "-a -r" grow-20-a-r.txt
snap "-h" grow-20-h.txt
sleep 600
grow 300000; snap "-a -r" grow-30-a-r.txt
sleep 300
echo "COMMIT; QUIT;" >&7
exec 7>&-
echo "$(date +%T) committed" >> log
sleep 290
grow 400000; snap "-a -r" grow-40-a-r.txt
echo done >> log
