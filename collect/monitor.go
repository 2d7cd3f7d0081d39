package collect

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
)

// Monitor is what the monitoring tables and the catalogue say about a
// database at one moment: the transaction markers, the oldest active
// transaction and who holds it, the cumulative page I/O and each index's
// stored selectivity. JSON names are the contract in docs/live.md.
type Monitor struct {
	Database    string            `json:"database"`
	CollectedAt time.Time         `json:"collected_at"`
	Header      MonDatabase       `json:"header"`
	Connection  Connection        `json:"connection"`
	Attachments int               `json:"attachments"` // other attachments than fbdiag's own
	OldestTx    *OldestActive     `json:"oldest_active"`
	IO          IOStats           `json:"io"`
	Indices     []IndexStatistics `json:"indices"`
	// File is the database's file as the server names it (an alias
	// resolved), to tell whether a snapshot would replace it.
	File string `json:"-"`
}

// Connection is how fbdiag's own SQL attachment is protected: the
// server's account (Firebird 3 and later; null before) and the driver's.
type Connection struct {
	AuthMethod    *string `json:"auth_method"`    // MON$AUTH_METHOD, e.g. "Srp"
	WireEncrypted *bool   `json:"wire_encrypted"` // RDB$GET_CONTEXT('SYSTEM', 'WIRE_ENCRYPTED')
	WireCipher    string  `json:"wire_cipher"`    // the cipher the driver armed ("Arc4"), "" for none
}

// MonDatabase is the MON$DATABASE row: gstat -h's markers, read live.
type MonDatabase struct {
	PageSize          int64 `json:"page_size"`
	Pages             int64 `json:"pages"` // allocated on disk; size = pages × page size
	PageBuffers       int64 `json:"page_buffers"`
	ODSMajor          int   `json:"ods_major"`
	ODSMinor          int   `json:"ods_minor"`
	OldestTransaction int64 `json:"oldest_transaction"` // OIT
	OldestActive      int64 `json:"oldest_active"`      // OAT
	OldestSnapshot    int64 `json:"oldest_snapshot"`    // OST
	NextTransaction   int64 `json:"next_transaction"`
	SweepInterval     int64 `json:"sweep_interval"`
	ForcedWrites      bool  `json:"forced_writes"`
	ReadOnly          bool  `json:"read_only"`
}

// OldestActive is the oldest transaction still active in another
// attachment, and who opened it: the transaction that holds garbage
// collection back ("use the MON$ tables to identify it and stop it").
type OldestActive struct {
	TransactionID int64      `json:"transaction_id"`
	Started       ServerTime `json:"started"`     // MON$TIMESTAMP: Firebird 3's has no zone, 4's has the server's
	AgeSeconds    int64      `json:"age_seconds"` // measured by the server, so clocks need not agree
	AttachmentID  int64      `json:"attachment_id"`
	User          string     `json:"user"`
	RemoteAddress *string    `json:"remote_address"` // null for local (embedded/XNET) attachments
	RemoteProcess *string    `json:"remote_process"`
	RemotePID     *int64     `json:"remote_pid"`
}

// IOStats are MON$IO_STATS of the database group (MON$STAT_GROUP 0):
// cumulative since the server opened the database.
type IOStats struct {
	PageReads   int64 `json:"page_reads"`
	PageWrites  int64 `json:"page_writes"`
	PageFetches int64 `json:"page_fetches"`
	PageMarks   int64 `json:"page_marks"`
}

// IndexStatistics is one user index from RDB$INDICES. Stored is
// RDB$STATISTICS, the selectivity (1 / distinct keys) computed at creation
// or by the last SET STATISTICS; null when never computed. Constraint and
// ConstraintType name the PRIMARY KEY, FOREIGN KEY or UNIQUE constraint
// the index enforces (RDB$RELATION_CONSTRAINTS); null for an index no
// constraint uses. Firebird refuses to deactivate a constraint's index,
// so the analysis needs to know.
type IndexStatistics struct {
	Table          string   `json:"table"`
	Index          string   `json:"index"`
	Unique         bool     `json:"unique"`
	Inactive       bool     `json:"inactive"`
	Segments       int      `json:"segments"`
	Stored         *float64 `json:"stored_selectivity"`
	Constraint     *string  `json:"constraint"`
	ConstraintType *string  `json:"constraint_type"`
}

const (
	sqlMonDatabase = `SELECT MON$PAGE_SIZE, MON$PAGES, MON$PAGE_BUFFERS, MON$ODS_MAJOR, MON$ODS_MINOR,
  MON$OLDEST_TRANSACTION, MON$OLDEST_ACTIVE, MON$OLDEST_SNAPSHOT, MON$NEXT_TRANSACTION,
  MON$SWEEP_INTERVAL, MON$FORCED_WRITES, MON$READ_ONLY, MON$DATABASE_NAME
FROM MON$DATABASE`

	sqlAttachments = `SELECT COUNT(*) FROM MON$ATTACHMENTS
WHERE MON$ATTACHMENT_ID <> CURRENT_CONNECTION AND MON$SYSTEM_FLAG = 0`

	// Every transaction in MON$TRANSACTIONS is active (MON$STATE only
	// says whether a statement runs); fbdiag's own are left out.
	sqlOldestActive = `SELECT FIRST 1 t.MON$TRANSACTION_ID, t.MON$TIMESTAMP, CAST(t.MON$TIMESTAMP AS VARCHAR(64)),
  DATEDIFF(SECOND FROM t.MON$TIMESTAMP TO CURRENT_TIMESTAMP),
  a.MON$ATTACHMENT_ID, a.MON$USER, a.MON$REMOTE_ADDRESS, a.MON$REMOTE_PROCESS, a.MON$REMOTE_PID
FROM MON$TRANSACTIONS t JOIN MON$ATTACHMENTS a ON a.MON$ATTACHMENT_ID = t.MON$ATTACHMENT_ID
WHERE t.MON$ATTACHMENT_ID <> CURRENT_CONNECTION
ORDER BY t.MON$TRANSACTION_ID`

	sqlIOStats = `SELECT io.MON$PAGE_READS, io.MON$PAGE_WRITES, io.MON$PAGE_FETCHES, io.MON$PAGE_MARKS
FROM MON$IO_STATS io JOIN MON$DATABASE d ON d.MON$STAT_ID = io.MON$STAT_ID
WHERE io.MON$STAT_GROUP = 0`

	sqlEngine = `SELECT RDB$GET_CONTEXT('SYSTEM', 'ENGINE_VERSION') FROM RDB$DATABASE`

	// Firebird 3 and later.
	sqlConnection = `SELECT a.MON$AUTH_METHOD, RDB$GET_CONTEXT('SYSTEM', 'WIRE_ENCRYPTED')
FROM MON$ATTACHMENTS a WHERE a.MON$ATTACHMENT_ID = CURRENT_CONNECTION`

	// A constraint has at most one index (NOT NULL and CHECK have none).
	sqlIndices = `SELECT i.RDB$RELATION_NAME, i.RDB$INDEX_NAME, COALESCE(i.RDB$UNIQUE_FLAG, 0),
  COALESCE(i.RDB$INDEX_INACTIVE, 0), COALESCE(i.RDB$SEGMENT_COUNT, 0), i.RDB$STATISTICS,
  rc.RDB$CONSTRAINT_NAME, rc.RDB$CONSTRAINT_TYPE
FROM RDB$INDICES i JOIN RDB$RELATIONS r ON r.RDB$RELATION_NAME = i.RDB$RELATION_NAME
LEFT JOIN RDB$RELATION_CONSTRAINTS rc ON rc.RDB$INDEX_NAME = i.RDB$INDEX_NAME
WHERE COALESCE(r.RDB$SYSTEM_FLAG, 0) = 0
ORDER BY i.RDB$RELATION_NAME, i.RDB$INDEX_NAME`
)

// Monitor reads the monitoring tables and the index catalogue of database
// in one read-only transaction (the MON$ snapshot is frozen per
// transaction, so all figures are from the same instant).
func (s Server) Monitor(ctx context.Context, database string) (*Monitor, error) {
	db, err := s.open(ctx, database)
	if err != nil {
		return nil, s.fail("attach to", database, err)
	}
	defer db.Close()
	cipher, err := wireCipher(ctx, db)
	if err == nil {
		err = s.checkWire(cipher)
	}
	if err != nil {
		return nil, s.fail("attach to", database, err)
	}
	m, err := readMonitor(ctx, db)
	if err != nil {
		return nil, s.fail("read the monitoring tables of", database, err)
	}
	m.Database = database
	m.Connection.WireCipher = cipher
	return m, nil
}

// wireCipher asks the driver which cipher it armed on db's connection.
func wireCipher(ctx context.Context, db *sql.DB) (string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	cipher := ""
	err = conn.Raw(func(dc any) error {
		if c, ok := dc.(interface{ WireCipher() string }); ok {
			cipher = c.WireCipher()
		}
		return nil
	})
	return cipher, err
}

// readConnection reads the server's account of this attachment's login
// and wire, which Firebird 3 introduced; older servers leave them null.
func readConnection(ctx context.Context, tx *sql.Tx, c *Connection) error {
	var engine sql.NullString
	if err := tx.QueryRowContext(ctx, sqlEngine).Scan(&engine); err != nil {
		return err
	}
	major, _, _ := strings.Cut(engine.String, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 3 {
		return nil
	}
	var auth, encrypted sql.NullString
	if err := tx.QueryRowContext(ctx, sqlConnection).Scan(&auth, &encrypted); err != nil {
		return err
	}
	c.AuthMethod = nullString(auth)
	if encrypted.Valid {
		e := strings.EqualFold(strings.TrimSpace(encrypted.String), "TRUE")
		c.WireEncrypted = &e
	}
	return nil
}

func readMonitor(ctx context.Context, db *sql.DB) (*Monitor, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	m := &Monitor{CollectedAt: time.Now().UTC().Truncate(time.Second), Indices: []IndexStatistics{}}
	h := &m.Header
	var forced, ro int
	if err := tx.QueryRowContext(ctx, sqlMonDatabase).Scan(&h.PageSize, &h.Pages, &h.PageBuffers,
		&h.ODSMajor, &h.ODSMinor, &h.OldestTransaction, &h.OldestActive, &h.OldestSnapshot,
		&h.NextTransaction, &h.SweepInterval, &forced, &ro, &m.File); err != nil {
		return nil, err
	}
	m.File = strings.TrimSpace(m.File)
	h.ForcedWrites, h.ReadOnly = forced != 0, ro != 0
	if err := readConnection(ctx, tx, &m.Connection); err != nil {
		return nil, err
	}
	if err := tx.QueryRowContext(ctx, sqlAttachments).Scan(&m.Attachments); err != nil {
		return nil, err
	}
	oa, err := readOldestActive(ctx, tx)
	switch err {
	case nil:
		m.OldestTx = oa
	case sql.ErrNoRows:
	default:
		return nil, err
	}
	io := &m.IO
	if err := tx.QueryRowContext(ctx, sqlIOStats).Scan(&io.PageReads, &io.PageWrites, &io.PageFetches, &io.PageMarks); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, sqlIndices)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var ix IndexStatistics
		var unique, inactive int
		var stored sql.NullFloat64
		var cname, ctype sql.NullString
		if err := rows.Scan(&ix.Table, &ix.Index, &unique, &inactive, &ix.Segments, &stored, &cname, &ctype); err != nil {
			return nil, err
		}
		ix.Table, ix.Index = strings.TrimSpace(ix.Table), strings.TrimSpace(ix.Index)
		ix.Constraint, ix.ConstraintType = nullString(cname), nullString(ctype)
		ix.Unique, ix.Inactive = unique != 0, inactive != 0
		if stored.Valid {
			ix.Stored = &stored.Float64
		}
		m.Indices = append(m.Indices, ix)
	}
	return m, rows.Err()
}

// readOldestActive reads the oldest transaction of another attachment;
// sql.ErrNoRows when there is none.
func readOldestActive(ctx context.Context, tx *sql.Tx) (*OldestActive, error) {
	rows, err := tx.QueryContext(ctx, sqlOldestActive)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, sql.ErrNoRows
	}
	var oa OldestActive
	var typed time.Time
	var text, addr, proc sql.NullString
	var pid sql.NullInt64
	if err := rows.Scan(&oa.TransactionID, &typed, &text, &oa.AgeSeconds,
		&oa.AttachmentID, &oa.User, &addr, &proc, &pid); err != nil {
		return nil, err
	}
	zoned := strings.Contains(types[1].DatabaseTypeName(), "ZONE")
	if oa.Started, err = scanServerTime(typed, text, zoned); err != nil {
		return nil, err
	}
	oa.User = strings.TrimSpace(oa.User)
	oa.RemoteAddress, oa.RemoteProcess = nullString(addr), nullString(proc)
	if pid.Valid {
		oa.RemotePID = &pid.Int64
	}
	return &oa, nil
}

func nullString(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := strings.TrimSpace(s.String)
	return &v
}
