-- fbdiag bench: the loader. The server generates every row with RAND()
-- (TPC-C 5.11 clause 4.3.3.1 gives the values); fbdiag sends one call per
-- part: ten calls of 10,000 items, then one call per district, which writes
-- that district's customers, history, orders, order lines and new orders
-- interleaved row by row with a tenth of the warehouse's stock, as the
-- IBSurgeon loader inserted master, detail and sub-detail together rather
-- than table by table. Strings are random slices of a random pool of
-- letters and digits (ASCII, as the columns), POOL, or of digits, DPOOL.
--
-- The expressions in double braces below are written out by fbdiag before
-- it sends the script (schema.go, expandLoaderExpr): a call of a PSQL
-- function costs some 4 microseconds on Firebird 3, and the eighty calls a
-- customer took (its stock, lines and strings) were two thirds of a
-- load's time.
--   RND lo hi        an integer from lo to hi
--   STR lo hi        lo to hi characters of POOL
--   DIGITS n         n characters of DPOOL
--   ZIP              four digits and 11111
--   NURAND a x y c   NURand(A, x, y) with C = c (clause 2.1.6)
--   LAST n           the last name of number n, 0..999 (clause 4.3.2.3)
--   DATA             sets XDATA to an I_DATA or S_DATA: 26 to 50
--                    characters, 10% holding ORIGINAL at a random place
SET TERM ^ ;
-- Items PART*10000-9999 .. PART*10000.
CREATE OR ALTER PROCEDURE BENCH_LOAD_ITEMS (PART INTEGER) RETURNS (ROWS_LOADED INTEGER) AS
DECLARE POOL VARCHAR(1024) CHARACTER SET ASCII = '{{ALNUM_POOL}}';
DECLARE DPOOL VARCHAR(64) CHARACTER SET ASCII = '{{DIGIT_POOL}}';
DECLARE XDATA VARCHAR(50) CHARACTER SET ASCII;
DECLARE P INTEGER;
DECLARE I INTEGER;
DECLARE STARTED TIMESTAMP;
BEGIN
  STARTED = CURRENT_TIMESTAMP;
  I = (PART - 1) * 10000 + 1;
  WHILE (I <= PART * 10000) DO
  BEGIN
    {{DATA}}
    INSERT INTO ITEM (I_ID, I_IM_ID, I_NAME, I_PRICE, I_DATA)
    VALUES (:I, {{RND 1 10000}}, {{STR 14 24}}, {{RND 100 10000}} / 100.00, :XDATA);
    I = I + 1;
  END
  ROWS_LOADED = 10000;
  INSERT INTO BENCH_PART (W_ID, PART, ROWS_, STARTED, FINISHED) VALUES (0, :PART, :ROWS_LOADED, :STARTED, CURRENT_TIMESTAMP);
END^
-- District D of warehouse W (and the warehouse row with district 1).
CREATE OR ALTER PROCEDURE BENCH_LOAD_DISTRICT (W INTEGER, D INTEGER) RETURNS (ROWS_LOADED INTEGER) AS
DECLARE POOL VARCHAR(1024) CHARACTER SET ASCII = '{{ALNUM_POOL}}';
DECLARE DPOOL VARCHAR(64) CHARACTER SET ASCII = '{{DIGIT_POOL}}';
DECLARE XDATA VARCHAR(50) CHARACTER SET ASCII;
DECLARE P INTEGER;
DECLARE LNUM INTEGER;
DECLARE I INTEGER;
DECLARE N INTEGER;
DECLARE CNT INTEGER;
DECLARE K INTEGER;
DECLARE OFS INTEGER;
DECLARE S INTEGER;
DECLARE NOW TIMESTAMP;
BEGIN
  NOW = CURRENT_TIMESTAMP;
  ROWS_LOADED = 1;
  IF (D = 1) THEN
  BEGIN
    INSERT INTO WAREHOUSE (W_ID, W_NAME, W_STREET_1, W_STREET_2, W_CITY, W_STATE, W_ZIP, W_TAX, W_YTD)
    VALUES (:W, {{STR 6 10}}, {{STR 10 20}}, {{STR 10 20}}, {{STR 10 20}}, {{STR 2 2}},
      {{ZIP}}, {{RND 0 2000}} / 10000.0000, 300000.00);
    ROWS_LOADED = 2;
  END
  INSERT INTO DISTRICT (D_ID, D_W_ID, D_NAME, D_STREET_1, D_STREET_2, D_CITY, D_STATE, D_ZIP, D_TAX, D_YTD, D_NEXT_O_ID)
  VALUES (:D, :W, {{STR 6 10}}, {{STR 10 20}}, {{STR 10 20}}, {{STR 10 20}}, {{STR 2 2}},
    {{ZIP}}, {{RND 0 2000}} / 10000.0000, 30000.00, 3001);
  -- O_C_ID is a permutation of 1..3000: (I-1)*K + OFS modulo 3000, K prime to 3000.
  K = {{RND 1 2999}};
  WHILE (MOD(K, 2) = 0 OR MOD(K, 3) = 0 OR MOD(K, 5) = 0) DO K = {{RND 1 2999}};
  OFS = {{RND 0 2999}};
  S = (D - 1) * 10000;
  I = 1;
  WHILE (I <= 3000) DO
  BEGIN
    LNUM = IIF(I <= 1000, I - 1, {{NURAND 255 0 999 {{C_LAST_LOAD}}}});
    INSERT INTO CUSTOMER (C_ID, C_D_ID, C_W_ID, C_FIRST, C_MIDDLE, C_LAST, C_STREET_1, C_STREET_2, C_CITY,
      C_STATE, C_ZIP, C_PHONE, C_SINCE, C_CREDIT, C_CREDIT_LIM, C_DISCOUNT, C_BALANCE, C_YTD_PAYMENT,
      C_PAYMENT_CNT, C_DELIVERY_CNT, C_DATA)
    VALUES (:I, :D, :W, {{STR 8 16}}, 'OE',
      {{LAST :LNUM}},
      {{STR 10 20}}, {{STR 10 20}}, {{STR 10 20}}, {{STR 2 2}}, {{ZIP}}, {{DIGITS 16}},
      :NOW, IIF(RAND() < 0.1, 'BC', 'GC'), 50000.00, {{RND 0 5000}} / 10000.0000, -10.00, 10.00, 1, 0,
      {{STR 300 500}});
    INSERT INTO HISTORY (H_C_ID, H_C_D_ID, H_C_W_ID, H_D_ID, H_W_ID, H_DATE, H_AMOUNT, H_DATA)
    VALUES (:I, :D, :W, :D, :W, :NOW, 10.00, {{STR 12 24}});
    CNT = {{RND 5 15}};
    INSERT INTO ORDERS (O_ID, O_D_ID, O_W_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID, O_OL_CNT, O_ALL_LOCAL)
    VALUES (:I, :D, :W, MOD((:I - 1) * :K + :OFS, 3000) + 1, :NOW, IIF(:I < 2101, {{RND 1 10}}, NULL), :CNT, 1);
    N = 1;
    WHILE (N <= CNT) DO
    BEGIN
      INSERT INTO ORDER_LINE (OL_O_ID, OL_D_ID, OL_W_ID, OL_NUMBER, OL_I_ID, OL_SUPPLY_W_ID, OL_DELIVERY_D,
        OL_QUANTITY, OL_AMOUNT, OL_DIST_INFO)
      VALUES (:I, :D, :W, :N, {{RND 1 100000}}, :W, IIF(:I < 2101, :NOW, NULL), 5,
        IIF(:I < 2101, 0, {{RND 1 999999}} / 100.00), {{STR 24 24}});
      N = N + 1;
    END
    IF (I >= 2101) THEN
    BEGIN
      INSERT INTO NEW_ORDER (NO_O_ID, NO_D_ID, NO_W_ID) VALUES (:I, :D, :W);
      ROWS_LOADED = ROWS_LOADED + 1;
    END
    ROWS_LOADED = ROWS_LOADED + 3 + CNT;
    WHILE (S < (D - 1) * 10000 + (I * 10000) / 3000) DO
    BEGIN
      S = S + 1;
      {{DATA}}
      INSERT INTO STOCK (S_I_ID, S_W_ID, S_QUANTITY, S_DIST_01, S_DIST_02, S_DIST_03, S_DIST_04, S_DIST_05,
        S_DIST_06, S_DIST_07, S_DIST_08, S_DIST_09, S_DIST_10, S_YTD, S_ORDER_CNT, S_REMOTE_CNT, S_DATA)
      VALUES (:S, :W, {{RND 10 100}}, {{STR 24 24}}, {{STR 24 24}}, {{STR 24 24}},
        {{STR 24 24}}, {{STR 24 24}}, {{STR 24 24}}, {{STR 24 24}}, {{STR 24 24}},
        {{STR 24 24}}, {{STR 24 24}}, 0, 0, 0, :XDATA);
      ROWS_LOADED = ROWS_LOADED + 1;
    END
    I = I + 1;
  END
  INSERT INTO BENCH_PART (W_ID, PART, ROWS_, STARTED, FINISHED) VALUES (:W, :D, :ROWS_LOADED, :NOW, CURRENT_TIMESTAMP);
END^
-- The helper functions an earlier fbdiag's loader called, unused since
-- the procedures above were written over them: dropped, the callers first.
EXECUTE BLOCK AS
BEGIN
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_DATA' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_DATA';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_ZIP' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_ZIP';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_LAST' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_LAST';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_STR' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_STR';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_DIGITS' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_DIGITS';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_NURAND' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_NURAND';
  IF (EXISTS(SELECT 1 FROM RDB$FUNCTIONS WHERE RDB$FUNCTION_NAME = 'BENCH_RND' AND RDB$PACKAGE_NAME IS NULL)) THEN
    EXECUTE STATEMENT 'DROP FUNCTION BENCH_RND';
END^
SET TERM ; ^
