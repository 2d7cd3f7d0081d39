-- fbdiag live-test schema: /work/shared/corpus/fb30/shop-schema.sql scaled down
-- (1/10 of the rows, blobs up to 8 100 characters) so that creating, collecting, backing up
-- and restoring it takes seconds. The data is deterministic, so the record
-- counts below are exact:
--   WAREHOUSE 5, CUSTOMER 3000, ORDERS 10000 - 500 deleted = 9500,
--   ORDER_LINE 50000, STOCK 5000, DOCS 200.
-- The tests create the database with the firebirdsql_createdb driver and run
-- these statements one by one; isql-fb can run the file too (after a
-- CREATE DATABASE). Statements end with the current terminator (SET TERM).
SET SQL DIALECT 3;
CREATE TABLE WAREHOUSE (W_ID INTEGER NOT NULL PRIMARY KEY, W_NAME VARCHAR(10), W_YTD NUMERIC(12,2));
CREATE TABLE CUSTOMER (C_ID INTEGER NOT NULL, C_W_ID INTEGER NOT NULL, C_LAST VARCHAR(16), C_BALANCE NUMERIC(12,2), C_DATA VARCHAR(500), PRIMARY KEY (C_W_ID, C_ID));
CREATE TABLE ORDERS (O_ID INTEGER NOT NULL PRIMARY KEY, O_C_ID INTEGER, O_W_ID INTEGER, O_ENTRY_D TIMESTAMP, O_CARRIER_ID SMALLINT);
CREATE TABLE ORDER_LINE (OL_O_ID INTEGER NOT NULL, OL_NUMBER SMALLINT NOT NULL, OL_I_ID INTEGER, OL_AMOUNT NUMERIC(6,2), OL_DIST_INFO CHAR(24), PRIMARY KEY (OL_O_ID, OL_NUMBER));
CREATE TABLE STOCK (S_I_ID INTEGER NOT NULL, S_W_ID INTEGER NOT NULL, S_QUANTITY SMALLINT, S_DATA VARCHAR(50), PRIMARY KEY (S_W_ID, S_I_ID));
CREATE TABLE DOCS (ID INTEGER NOT NULL PRIMARY KEY, BODY BLOB SUB_TYPE TEXT);
CREATE INDEX CUSTOMER_LAST ON CUSTOMER (C_LAST);
CREATE INDEX ORDERS_CARRIER ON ORDERS (O_CARRIER_ID);
CREATE DESCENDING INDEX ORDERS_DATE_D ON ORDERS (O_ENTRY_D);
CREATE INDEX OL_ITEM ON ORDER_LINE (OL_I_ID);
COMMIT;
SET TERM ^ ;
EXECUTE BLOCK AS
DECLARE i INTEGER = 0; DECLARE j INTEGER;
BEGIN
  WHILE (i < 5) DO BEGIN INSERT INTO WAREHOUSE VALUES (:i, 'W' || :i, 0); i = i + 1; END
  i = 0;
  WHILE (i < 3000) DO BEGIN
    INSERT INTO CUSTOMER VALUES (:i, MOD(:i, 5), 'NAME' || MOD(:i, 100), 0, LPAD('', 200 + MOD(:i, 300), 'x'));
    i = i + 1;
  END
  i = 0;
  WHILE (i < 10000) DO BEGIN
    INSERT INTO ORDERS VALUES (:i, MOD(:i, 3000), MOD(:i, 5), DATEADD(:i SECOND TO TIMESTAMP '2014-01-01 00:00:00'), IIF(MOD(:i, 3) = 0, NULL, MOD(:i, 10)));
    j = 1;
    WHILE (j <= 5) DO BEGIN
      INSERT INTO ORDER_LINE VALUES (:i, :j, MOD(:i * 7 + :j, 5000), MOD(:i, 9999) / 100.0, 'dist-info-' || :j);
      j = j + 1;
    END
    i = i + 1;
  END
  i = 0;
  WHILE (i < 5000) DO BEGIN
    INSERT INTO STOCK VALUES (MOD(:i, 1000), :i / 1000, MOD(:i, 100), 'stockdata' || :i);
    i = i + 1;
  END
  i = 0;
  WHILE (i < 200) DO BEGIN
    INSERT INTO DOCS VALUES (:i, LPAD('', 100 + MOD(:i * 97, 8000), 'blob text '));
    i = i + 1;
  END
END^
SET TERM ; ^
COMMIT;
UPDATE STOCK SET S_QUANTITY = S_QUANTITY + 1 WHERE S_I_ID < 300;
UPDATE CUSTOMER SET C_BALANCE = C_BALANCE + 10 WHERE C_ID < 1000;
DELETE FROM ORDERS WHERE O_ID < 500;
COMMIT;
-- Read the changed tables once, so that cooperative garbage collection
-- removes the deleted ORDERS rows before anyone runs gstat (otherwise
-- "total records" depends on when the background collector ran).
SET TERM ^ ;
EXECUTE BLOCK AS DECLARE n INTEGER; BEGIN
  SELECT COUNT(*) FROM ORDERS INTO :n; SELECT COUNT(*) FROM STOCK INTO :n; SELECT COUNT(*) FROM CUSTOMER INTO :n;
END^
SET TERM ; ^
