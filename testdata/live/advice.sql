-- fbdiag live test of the advice (cmd/fbdiag TestLiveAdviceRuns): run on a copy of the shop
-- database (shop.sql), it adds a table whose indices fire the index rules that advise a
-- statement, one index of each kind a rule can name:
--   RDB$PRIMARYn   the PRIMARY KEY of ITEMS, sparse once three rows in four are deleted
--                  (index-sparse: ALTER INDEX ... ACTIVE);
--   RDB$FOREIGNn   the FOREIGN KEY to WAREHOUSE, 5 distinct values over 10,000 rows
--                  (index-low-selectivity: ALTER TABLE ... DROP CONSTRAINT);
--   RDB$n          the UNIQUE constraint on CODE (codes in insertion order), sparse as the primary key is;
--   "items flag"   a plain index of 2 distinct values, its name needing quotes
--                  (index-useless: DROP INDEX).
-- Every index is created on an empty table, so its stored statistics are stale once the rows
-- are in. The data is deterministic.
CREATE TABLE ITEMS (ID INTEGER NOT NULL PRIMARY KEY, W_ID INTEGER NOT NULL REFERENCES WAREHOUSE (W_ID),
  CODE VARCHAR(20) NOT NULL UNIQUE, FLAG SMALLINT, NOTE VARCHAR(40));
CREATE INDEX "items flag" ON ITEMS (FLAG);
COMMIT;
SET TERM ^ ;
EXECUTE BLOCK AS
DECLARE i INTEGER = 0;
BEGIN
  WHILE (i < 40000) DO BEGIN
    INSERT INTO ITEMS VALUES (:i, MOD(:i, 5), 'C' || LPAD(:i, 8, '0'), MOD(:i / 4, 2), 'note ' || :i);
    i = i + 1;
  END
END^
SET TERM ; ^
COMMIT;
DELETE FROM ITEMS WHERE MOD(ID, 4) <> 0;
COMMIT;
-- Read the table so that cooperative garbage collection removes the deleted rows and their
-- index keys before gstat runs.
SET TERM ^ ;
EXECUTE BLOCK AS DECLARE n INTEGER; BEGIN SELECT COUNT(*) FROM ITEMS INTO :n; END^
SET TERM ; ^
COMMIT;
