package collect

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	fb "github.com/nakagami/firebirdsql"
)

// CleanupTimeout bounds what fbdiag asks of the server after an
// interruption or a failure (cancelling a service, shutting a database
// down); the caller's context is usually done by then.
const CleanupTimeout = 15 * time.Second

// Detaching from a service does not stop it: tested against Firebird
// 3.0.11, a restore whose client detached (op_service_detach) or dropped
// its connection runs to its end, and there is no action to cancel a
// service. A backup can be stopped all the same: it reads the database
// through an attachment of its own, and deleting that attachment from
// MON$ATTACHMENTS makes gbak fail ("connection shutdown") and delete its
// partial file. A restore's new database is in single-user maintenance
// while gbak holds it, so no other attachment can reach it.

// sqlServiceAttachments lists the attachments a service may own: a
// service's attachment carries no client process (MON$REMOTE_PROCESS and
// MON$REMOTE_PID are null; Firebird 3.0.11) and its user is the one who
// started it.
const sqlServiceAttachments = `SELECT MON$ATTACHMENT_ID FROM MON$ATTACHMENTS
WHERE MON$ATTACHMENT_ID <> CURRENT_CONNECTION AND MON$SYSTEM_FLAG = 0
  AND MON$REMOTE_PROCESS IS NULL AND MON$REMOTE_PID IS NULL AND MON$USER = CURRENT_USER`

// serviceWatch remembers which such attachments a database had before
// fbdiag started a service on it, so that the service's own one can be
// told apart afterwards.
type serviceWatch struct {
	db     *sql.DB // nil when none could be kept (see none)
	before map[int64]bool
	file   string // the database's file as the server names it (an alias resolved)
	// none says why no attachment is kept to cancel with.
	none error
}

// watchServices attaches to database and notes its service attachments.
func (s Server) watchServices(ctx context.Context, database string) (*serviceWatch, error) {
	db, err := s.open(ctx, database)
	if err != nil {
		return nil, err
	}
	ids, file, err := serviceAttachments(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	w := &serviceWatch{db: db, before: map[int64]bool{}, file: file}
	for _, id := range ids {
		w.before[id] = true
	}
	// A database in single-user shutdown (gfix -shut single) admits one
	// attachment: kept, it would be the one and gbak's would be refused
	// ("database X shutdown", Firebird 3.0.11), where gbak alone backs it
	// up.
	var mode int
	if err := db.QueryRowContext(ctx, "SELECT MON$SHUTDOWN_MODE FROM MON$DATABASE").Scan(&mode); err != nil {
		db.Close()
		return nil, err
	}
	if mode == shutdownSingle {
		db.Close()
		w.db, w.none = nil, errSingleUser
	}
	return w, nil
}

// shutdownSingle is MON$SHUTDOWN_MODE of single-user shutdown.
const shutdownSingle = 2

// errSingleUser says why a backup of a database in single-user shutdown
// cannot be cancelled.
var errSingleUser = errors.New("the database is in single-user shutdown, which admits gbak's attachment alone, so fbdiag kept none to cancel it with")

// serviceAttachments lists them, with the database's file as the server
// names it, in a transaction of its own: the MON$ tables are a snapshot
// per transaction, and the driver's autocommit keeps one transaction
// (commit retaining), which would show the same snapshot for ever.
func serviceAttachments(ctx context.Context, db *sql.DB) ([]int64, string, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, "", err
	}
	defer tx.Rollback()
	var file string
	if err := tx.QueryRowContext(ctx, "SELECT MON$DATABASE_NAME FROM MON$DATABASE").Scan(&file); err != nil {
		return nil, "", err
	}
	rows, err := tx.QueryContext(ctx, sqlServiceAttachments)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, "", err
		}
		ids = append(ids, id)
	}
	return ids, strings.TrimSpace(file), rows.Err()
}

// cancel deletes the one service attachment that appeared since the
// watch began, which stops the service using it. With none or several
// (another tool started a service meanwhile) it deletes nothing and
// returns 0: killing someone else's backup is worse than waiting.
func (w *serviceWatch) cancel(ctx context.Context) (int64, error) {
	if w == nil {
		return 0, errNoWatch
	}
	if w.db == nil {
		return 0, w.none
	}
	ids, _, err := serviceAttachments(ctx, w.db)
	if err != nil {
		return 0, err
	}
	var mine []int64
	for _, id := range ids {
		if !w.before[id] {
			mine = append(mine, id)
		}
	}
	if len(mine) != 1 {
		return 0, nil
	}
	if _, err := w.db.ExecContext(ctx, "DELETE FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = ?", mine[0]); err != nil {
		return 0, err
	}
	return mine[0], nil
}

// errNoWatch says why a backup with -ig cannot be cancelled.
var errNoWatch = errors.New("gbak -ig allows no other attachment, so fbdiag kept none to cancel it with")

func (w *serviceWatch) close() {
	if w != nil && w.db != nil {
		w.db.Close()
	}
}

// Database properties (isc_action_svc_properties) for the swap of a
// replaced database.
const (
	actionProperties        = 8  // isc_action_svc_properties
	spbPrpAttachmentsShut   = 42 // isc_spb_prp_attachments_shutdown: seconds to wait for attachments to end
	spbPrpShutdownMode      = 44 // isc_spb_prp_shutdown_mode
	spbPrpOnlineMode        = 45 // isc_spb_prp_online_mode
	prpShutdownFull         = 3  // isc_spb_prp_sm_full
	prpOnlineNormal         = 0  // isc_spb_prp_sm_normal
	shutdownWaitAttachments = 0
)

// shutdownFull takes database to full shutdown (gfix -shut full -attach
// 0): new attachments are refused at once and, if any attachment remains,
// the server refuses ("database shutdown unsuccessful") and the database
// stays online. Once it succeeds no attachment holds the file, which the
// server has then closed, so it can be renamed.
func (s Server) shutdownFull(ctx context.Context, database string) error {
	return s.properties(ctx, fb.NewXPBWriterFromTag(actionProperties).
		PutString(spbDbName, database).
		PutByte(spbPrpShutdownMode, prpShutdownFull).
		PutInt32(spbPrpAttachmentsShut, shutdownWaitAttachments).Bytes())
}

// online brings database back online (gfix -online normal).
func (s Server) online(ctx context.Context, database string) error {
	return s.properties(ctx, fb.NewXPBWriterFromTag(actionProperties).
		PutString(spbDbName, database).
		PutByte(spbPrpOnlineMode, prpOnlineNormal).Bytes())
}

func (s Server) properties(ctx context.Context, spb []byte) error {
	sm, err := s.service(ctx)
	if err != nil {
		return err
	}
	defer sm.Close()
	return runService(ctx, sm, spb, func([]byte) error { return nil }, nil)
}
