package analyze

import "strings"

// QuoteIdent writes a table or index name the way a DBA types it into
// isql: bare when Firebird reads it back unchanged, in double quotes
// (inner quotes doubled) when it has lower case letters, spaces or other
// characters, or is a keyword. Quoted names need dialect 3, where such
// names are the only way to have them.
func QuoteIdent(name string) string {
	if isRegularIdent(name) && !isKeyword(name) {
		return name
	}
	return string(appendQuoteIdent(nil, name))
}

// QuoteName qualifies a name with its Firebird 6 schema when there is one.
func QuoteName(schema, name string) string {
	if schema == "" {
		return QuoteIdent(name)
	}
	return string(appendQuoteName(nil, schema, name))
}

// appendQuoteIdent appends QuoteIdent(name): the quoting is here alone.
func appendQuoteIdent(b []byte, name string) []byte {
	if isRegularIdent(name) && !isKeyword(name) {
		return append(b, name...)
	}
	b = append(b, '"')
	for {
		i := strings.IndexByte(name, '"')
		if i < 0 {
			break
		}
		b = append(b, name[:i+1]...)
		b = append(b, '"')
		name = name[i+1:]
	}
	b = append(b, name...)
	return append(b, '"')
}

// appendQuoteName appends QuoteName(schema, name).
func appendQuoteName(b []byte, schema, name string) []byte {
	if schema != "" {
		b = append(appendQuoteIdent(b, schema), '.')
	}
	return appendQuoteIdent(b, name)
}

// sqlString is a SQL string literal: single quotes, inner ones doubled.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// isRegularIdent: an upper-case letter, then upper-case letters, digits,
// '_' and '$' (the unquoted identifiers of the Language Reference).
func isRegularIdent(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !identByte[s[i]] {
			return false
		}
	}
	return true
}

// identByte marks the bytes of an unquoted identifier past its first
// (a look-up, not four tests: the index rules' advice quotes a name a
// warning).
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
	}
	return t
}()

// isKeyword says whether name, a regular identifier, is in sqlKeywords.
// Most names are not, and most differ from every keyword of their length
// in their first letter: keywordFirsts tells those without hashing name.
func isKeyword(name string) bool {
	n := len(name)
	return n < len(keywordFirsts) && keywordFirsts[n]>>(name[0]-'A')&1 != 0 && sqlKeywords[name]
}

// keywordFirsts holds, for each length, a bit for each first letter of a
// keyword of that length (bit 0 for A).
var keywordFirsts = func() (t [32]uint32) {
	for w := range sqlKeywords {
		t[len(w)] |= 1 << (w[0] - 'A')
	}
	return t
}()

// sqlKeywords are the words isql itself quotes: the entries of the
// keyword table (src/dsql/keywords.cpp of Firebird 3.0 and 4.0,
// ParserTokens.h of 5.0) that the parser treats as tokens, as collected in
// github.com/mrotteveel/firebird-reserved-words. It is wider than the
// reserved words (ABS, for one, is not reserved), which costs nothing:
// quoting a name that needs none is still correct in dialect 3.
var sqlKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
ABS ACOS ACOSH ACTIVE ADD ADMIN AFTER ALL ALTER AND ANY AS ASC ASCENDING ASCII_CHAR ASCII_VAL
ASIN ASINH AT ATAN ATAN2 ATANH AUTO AUTONOMOUS AVG BEFORE BEGIN BETWEEN BIGINT BINARY BIN_AND
BIN_NOT BIN_OR BIN_SHL BIN_SHR BIN_XOR BIT_LENGTH BLOB BOOLEAN BOTH BY CASE CAST CEIL CEILING
CHAR CHARACTER CHARACTER_LENGTH CHAR_LENGTH CHAR_TO_UUID CHECK CLOSE COLLATE COLUMN COMMENT
COMMIT COMMITTED COMPUTED CONDITIONAL CONNECT CONSTRAINT CONTAINING CORR COS COSH COT COUNT
COVAR_POP COVAR_SAMP CREATE CROSS CSTRING CURRENT CURRENT_CONNECTION CURRENT_DATE CURRENT_ROLE
CURRENT_TIME CURRENT_TIMESTAMP CURRENT_TRANSACTION CURRENT_USER CURSOR DATABASE DATE DATEADD
DATEDIFF DAY DDL DEC DECFLOAT DECIMAL DECLARE DECODE DEFAULT DELETE DELETING DENSE_RANK DESC
DESCENDING DETERMINISTIC DISCONNECT DISTINCT DO DOMAIN DOUBLE DROP ELSE END ENTRY_POINT ESCAPE
EXCEPTION EXECUTE EXISTS EXIT EXP EXTERNAL EXTRACT FALSE FETCH FILE FILTER FIRSTNAME FIRST_VALUE
FLOAT FLOOR FOR FOREIGN FROM FULL FUNCTION GDSCODE GENERATOR GEN_ID GEN_UUID GLOBAL GRANT
GRANTED GROUP HASH HAVING HOUR IDENTITY IF IN INACTIVE INCREMENT INDEX INNER INPUT_TYPE
INSENSITIVE INSERT INSERTING INT INT128 INTEGER INTO IS ISOLATION JOIN KEY LAG LASTNAME
LAST_VALUE LATERAL LEAD LEADING LEFT LENGTH LEVEL LIKE LIST LN LOCAL LOCALTIME LOCALTIMESTAMP
LOG LOG10 LONG LOWER LPAD MANUAL MAPPING MATCHED MATCHING MAX MAXVALUE MERGE MIDDLENAME
MILLISECOND MIN MINUTE MINVALUE MOD MODULE_NAME MONTH NAMES NATIONAL NATURAL NCHAR NO NOT
NTH_VALUE NULL NUMERIC OCTET_LENGTH OF OFFSET ON ONLY OPEN OPTION OR ORDER OS_NAME OUTER
OUTPUT_TYPE OVER OVERFLOW OVERLAY PAGE PAGES PAGE_SIZE PARAMETER PARTITION PASSWORD PI PLACING
PLAN POSITION POST_EVENT POWER PRECISION PRIMARY PRIVILEGES PROCEDURE PROTECTED PUBLICATION RAND
RANK RDB$DB_KEY RDB$ERROR RDB$GET_CONTEXT RDB$GET_TRANSACTION_CN RDB$RECORD_VERSION
RDB$ROLE_IN_USE RDB$SET_CONTEXT RDB$SYSTEM_PRIVILEGE READ REAL RECORD_VERSION RECREATE RECURSIVE
REFERENCES REGR_AVGX REGR_AVGY REGR_COUNT REGR_INTERCEPT REGR_R2 REGR_SLOPE REGR_SXX REGR_SXY
REGR_SYY RELEASE REPLACE RESERV RESERVING RESETTING RETAIN RETURN RETURNING_VALUES RETURNS
REVERSE REVOKE RIGHT ROLLBACK ROUND ROW ROWS ROW_COUNT ROW_NUMBER RPAD SAVEPOINT SCHEMA SCROLL
SECOND SEGMENT SELECT SENSITIVE SET SHADOW SHARED SIGN SIMILAR SIN SINGULAR SINH SIZE SMALLINT
SNAPSHOT SOME SORT SQLCODE SQLSTATE SQRT STABILITY START STARTING STARTS STATISTICS STDDEV_POP
STDDEV_SAMP SUB_TYPE SUM SUSPEND TABLE TAN TANH THEN TIME TIMESTAMP TIMEZONE_HOUR
TIMEZONE_MINUTE TO TRAILING TRANSACTION TRIGGER TRIM TRUE TRUNC TRUSTED UNBOUNDED UNCOMMITTED
UNION UNIQUE UNKNOWN UPDATE UPDATING UPPER USER USING UUID_TO_CHAR VALUE VALUES VARBINARY
VARCHAR VARIABLE VARYING VAR_POP VAR_SAMP VIEW WAIT WEEK WHEN WHERE WHILE WINDOW WITH WITHOUT
WORK WRITE YEAR`) {
		m[w] = true
	}
	return m
}()
