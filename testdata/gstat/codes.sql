-- How codes-4k/8k/16k-gstat-a-r.txt were made on Firebird 3.0.11 (Debian),
-- to see which page size lowers the depth of an index on 100-byte keys.
-- 4k: this script, then fbstat -a -r. 8k and 16k: gbak -b of that database,
-- gbak -c -page_size 8192 (16384) into new files, then fbstat -a -r each.
SET SQL DIALECT 3;
CREATE DATABASE 'localhost:/var/lib/firebird/3.0/data/h13deep-0a3682b3.fdb' PAGE_SIZE 4096;
CREATE TABLE CODES (ID INTEGER NOT NULL PRIMARY KEY, CODE VARCHAR(100) CHARACTER SET OCTETS NOT NULL);
COMMIT;
SET TERM ^;
EXECUTE BLOCK AS DECLARE i INTEGER = 0; BEGIN
  WHILE (i < 10000) DO BEGIN
    INSERT INTO CODES VALUES (:i, CAST(LPAD('', 100, GEN_UUID()) AS VARCHAR(100) CHARACTER SET OCTETS));
    i = i + 1; END
END^
SET TERM ;^
COMMIT;
CREATE INDEX CODES_CODE ON CODES (CODE);
COMMIT;
