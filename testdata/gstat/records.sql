-- How records-4k-gstat-r.txt was made on Firebird 3.0.11 (Debian), to see
-- where record fragments come from: BIGR's records are longer than a 4 KB
-- page, WIDE's are VARCHAR(8000) (8010 bytes unpacked) holding one byte,
-- SMALLU's short records grew by an update on full pages. SMALLU_N is left
-- inactive: gstat does not list it. Then fbstat -r.
CREATE DATABASE 'localhost:/var/lib/firebird/3.0/data/h13frag-d58d8d13.fdb' PAGE_SIZE 4096;
CREATE TABLE BIGR (ID INTEGER NOT NULL PRIMARY KEY, S VARCHAR(8000) CHARACTER SET OCTETS);
CREATE TABLE WIDE (ID INTEGER NOT NULL PRIMARY KEY, S VARCHAR(8000));
CREATE TABLE SMALLU (ID INTEGER NOT NULL PRIMARY KEY, N INTEGER, S VARCHAR(40));
CREATE INDEX SMALLU_N ON SMALLU (N);
COMMIT;
SET TERM ^;
EXECUTE BLOCK AS DECLARE i INTEGER = 0; BEGIN
  WHILE (i < 300) DO BEGIN
    INSERT INTO BIGR VALUES (:i, CAST(LPAD('', 6000, UUID_TO_CHAR(GEN_UUID())) AS VARCHAR(8000) CHARACTER SET OCTETS));
    i = i + 1; END
  i = 0;
  WHILE (i < 3000) DO BEGIN INSERT INTO WIDE VALUES (:i, 'x'); i = i + 1; END
  i = 0;
  WHILE (i < 20000) DO BEGIN INSERT INTO SMALLU VALUES (:i, :i, 'a'); i = i + 1; END
END^
SET TERM ;^
COMMIT;
UPDATE SMALLU SET S = LPAD('', 40, 'bcdefghijklmnopqrstuvwxyz0123456789') WHERE MOD(ID, 2) = 0;
COMMIT;
ALTER INDEX SMALLU_N INACTIVE;
COMMIT;
-- records-8k-bigr-gstat-r.txt: gbak -b of that database, gbak -c -page_size 8192 into a new file, then fbstat -r -t BIGR.
