package collect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	fb "github.com/nakagami/firebirdsql"
)

// This file is what fbdiag bench needs of the driver: a pool of
// attachments, an empty database, scripts, the no-wait isolation, the
// conflict errors and the page buffers, so that the bench package talks to
// the server through collect like every other live command.

// ReadCommittedNoWait is the driver's READ COMMITTED NO WAIT isolation
// (firebirdsql.LevelReadCommittedNoWait, record versions): an update that
// meets a row another transaction changed and has not committed fails at
// once with a lock conflict instead of waiting for it.
const ReadCommittedNoWait = sql.IsolationLevel(fb.LevelReadCommittedNoWait)

// Pool attaches to database with up to conns connections (at least one)
// and checks the first one works. Errors are *Error, as Monitor's.
func (s Server) Pool(ctx context.Context, database string, conns int) (*sql.DB, error) {
	db, err := s.open(ctx, database)
	if err != nil {
		return nil, s.fail("attach to", database, err)
	}
	cipher, err := wireCipher(ctx, db)
	if err == nil {
		err = s.checkWire(cipher)
	}
	if err != nil {
		db.Close()
		return nil, s.fail("attach to", database, err)
	}
	db.SetMaxOpenConns(max(1, conns))
	db.SetMaxIdleConns(max(1, conns))
	return db, nil
}

// CreateEmpty creates database when the server says no such file exists,
// and reports whether it did. An existing database is left as it is
// (created false); any other failure to attach, such as a file that is
// not a database, is returned and nothing is created: the driver creates
// with isc_dpb_overwrite, so fbdiag only creates where the server found
// nothing at all.
func (s Server) CreateEmpty(ctx context.Context, database string) (bool, error) {
	db, err := s.open(ctx, database)
	if err == nil {
		db.Close()
		return false, nil
	}
	if !absent(err) {
		return false, s.fail("attach to", database, err)
	}
	if err := s.CreateDatabase(ctx, database, strings.NewReader("")); err != nil {
		return false, err
	}
	return true, nil
}

// RunScript runs an isql-style script (see CreateDatabase) on one of db's
// connections, every statement committed on its own.
func (s Server) RunScript(ctx context.Context, db *sql.DB, database string, script io.Reader) error {
	stmts, err := splitScript(script)
	if err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return s.fail("attach to", database, err)
	}
	defer conn.Close()
	for _, st := range stmts {
		if err := execCommit(ctx, conn, st.text); err != nil {
			return s.fail(fmt.Sprintf("run line %d of the script in", st.line), database, err)
		}
	}
	return nil
}

// Fail wraps an error of the driver met while doing op on object (a
// statement of fbdiag bench) into an *Error.
func (s Server) Fail(op, object string, err error) error { return s.fail(op, object, err) }

// conflictCodes are the GDS codes of a write that met another
// transaction's change: the lock conflict of a NO WAIT transaction, a
// deadlock, an update conflict, a concurrent transaction's change, a lock
// time-out.
var conflictCodes = []int{fb.ISCLockConflict, fb.ISCDeadlock, fb.ISCUpdateConflict,
	fb.ISCConcurrentTransaction, fb.ISCLockTimeout, iscErasedRecord}

// Firebird 3.0.11 stops a READ COMMITTED NO WAIT procedure whose DELETE
// meets a row a concurrent transaction has just deleted and committed
// (two Deliveries taking the same new order) with "cannot update erased
// record": the driver's catalogue gives it 336527548, but the server's
// status vector carries it in a form the driver does not always map, so
// the message decides too. Firebird 4 reports the same race as an update
// conflict.
const (
	iscErasedRecord = 336527548
	erasedRecordMsg = "cannot update erased record"
)

// IsConflict reports whether err is an update conflict that a retry of the
// transaction may clear.
func IsConflict(err error) bool {
	var fe *fb.FbError
	if !errors.As(err, &fe) {
		return false
	}
	for _, c := range conflictCodes {
		if slices.Contains(fe.GDSCodes, c) {
			return true
		}
	}
	return strings.HasPrefix(strings.TrimSpace(fe.Message), erasedRecordMsg)
}

// IsException reports whether err is the user exception name raised by
// PSQL (EXCEPTION name).
func IsException(err error, name string) bool {
	var fe *fb.FbError
	if !errors.As(err, &fe) || !slices.Contains(fe.GDSCodes, fb.ISCExcept) {
		return false
	}
	for _, p := range fe.Params {
		if slices.ContainsFunc(p, func(v string) bool { return strings.EqualFold(strings.TrimSpace(v), name) }) {
			return true
		}
	}
	return strings.Contains(fe.Message, name)
}

// Properties of a database (isc_action_svc_properties).
const (
	spbPrpPageBuffers = 5  // isc_spb_prp_page_buffers
	spbPrpWriteMode   = 12 // isc_spb_prp_write_mode
	prpWmAsync        = 37 // isc_spb_prp_wm_async
	prpWmSync         = 38 // isc_spb_prp_wm_sync
)

// SetPageBuffers writes the page buffers into database's header through
// the Services API (gfix -buffers n). A server opens the database with it
// the next time the database is opened: a Super server keeps the cache it
// has while any attachment remains.
func (s Server) SetPageBuffers(ctx context.Context, database string, n int) error {
	err := s.properties(ctx, fb.NewXPBWriterFromTag(actionProperties).
		PutString(spbDbName, database).
		PutInt32(spbPrpPageBuffers, int32(n)).Bytes())
	if err != nil {
		return s.fail("set the page buffers of", database, err)
	}
	return nil
}

// SetForcedWrites turns forced (synchronous) writes on or off (gfix -write
// sync|async).
func (s Server) SetForcedWrites(ctx context.Context, database string, on bool) error {
	mode := byte(prpWmAsync)
	if on {
		mode = prpWmSync
	}
	err := s.properties(ctx, fb.NewXPBWriterFromTag(actionProperties).
		PutString(spbDbName, database).
		PutByte(spbPrpWriteMode, mode).Bytes())
	if err != nil {
		return s.fail("set the write mode of", database, err)
	}
	return nil
}

// ConnectionLost reports whether err means the connection to the server
// is gone (dropped, reset, unreachable), so that nothing more can be done
// on it.
func ConnectionLost(err error) bool {
	switch kindOf(err) {
	case KindLost, KindUnreachable:
		return true
	}
	return false
}

// HeaderPageBuffers reads the page buffers written in database's header
// (gstat -h "Page buffers"; 0 means the server's default), which is what
// SetPageBuffers changes and what a sweep puts back.
func (s Server) HeaderPageBuffers(ctx context.Context, database string) (int64, error) {
	var b strings.Builder
	if _, err := s.Stats(ctx, database, Switches{Header: true}, &b); err != nil {
		return 0, err
	}
	for _, l := range strings.Split(b.String(), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "Page" && f[1] == "buffers" {
			if n, err := strconv.ParseInt(f[2], 10, 64); err == nil {
				return n, nil
			}
		}
	}
	return 0, s.errorf(KindServer, "read the header of", database, "no \"Page buffers\" line in gstat -h")
}
