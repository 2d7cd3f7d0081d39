package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"syscall"

	fb "github.com/nakagami/firebirdsql"

	"github.com/fbdiag/fbdiag/internal/shellarg"
)

// Kind says what went wrong, in the terms a DBA acts on.
type Kind int

// The kinds of failure fbdiag tells apart; anything else is KindServer
// with the server's own message.
const (
	KindServer      Kind = iota // the server refused, with its own message
	KindLogin                   // wrong user name or password
	KindUnreachable             // nothing answers at the address
	KindNoDatabase              // the database file or alias does not exist
	KindDenied                  // the server process may not open the file
	KindExists                  // the target database already exists
	KindBusy                    // the service is busy with another operation
	KindLost                    // the connection dropped in the middle
	KindInterrupted             // the user interrupted (Ctrl-C)
	KindWireCrypt               // wire encryption refused or not established
	KindAuth                    // no authentication plugin both sides accept
	KindNotLocal                // a file fbdiag would have to rename is not on this machine
	KindFileExists              // the backup file exists (no --force)
	KindInUse                   // the database to replace has other attachments
	KindSameFile                // a file the command writes is one it reads or replaces
	KindNotFirebird             // something answers at the address, but not Firebird
	KindShutdown                // the database is shut down (gfix -shut) to this attachment
)

// Error is one failed step, printed as one line naming what failed:
// "cannot <Op> <Object> on <Server>: <reason>".
type Error struct {
	Op     string // e.g. "read statistics of"
	Object string // database or file, may be empty
	Server string // host:port
	Kind   Kind
	Detail string // the server's message, on one line
	After  string // for gbak: the last step it printed before failing
	// Outcome says what a failed backup or restore left behind.
	Outcome string
	Err     error // the driver's error, for errors.Is/As
}

// gfixTarget is " HOST/PORT:DATABASE" for a gfix command on the server
// the error names, one shell word; "" without a database.
func gfixTarget(server, database string) string {
	if database == "" {
		return ""
	}
	return " " + shellarg.Client(ClientPrefix(server), database)
}

// ClientPrefix is what the client tools (gfix, gstat, isql) put before a
// database to reach it on the server at addr, HOST/PORT: ("localhost/3050:",
// "[::1]/3050:" for IPv6); "" when addr is no host and port.
func ClientPrefix(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return host + "/" + port + ":"
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("cannot ")
	b.WriteString(e.Op)
	switch {
	case e.Object == "" && e.Server != "":
		b.WriteString(" " + e.Server)
	case e.Object != "":
		b.WriteString(" " + e.Object)
		if e.Server != "" {
			b.WriteString(" on " + e.Server)
		}
	}
	b.WriteString(": ")
	switch e.Kind {
	case KindLogin:
		b.WriteString("wrong user name or password (check ISC_USER / ISC_PASSWORD)")
	case KindUnreachable:
		b.WriteString("server not reachable (" + e.Detail + ")")
	case KindNotFirebird:
		b.WriteString("not a Firebird server (it answered something other than the Firebird protocol): check the host and port")
	case KindNoDatabase:
		// "not a valid database" is a file the server found: a JSON file
		// given as the database read "database not found (file … is not a
		// valid database; IProvider::attachDatabase failed when loading
		// mapping cache)".
		if strings.Contains(e.Detail, "not a valid database") {
			b.WriteString("not a database: the file is there and the server cannot open it as one (" + e.Detail + ")")
		} else {
			b.WriteString("database not found (" + e.Detail + ")")
		}
	case KindShutdown:
		// From a full shutdown, gfix -shut single fails ("Target shutdown
		// mode is invalid"); gfix -online single works (3.0.11). The
		// server's words are the same for a full shutdown and for a
		// single-user one whose attachment is taken.
		t := gfixTarget(e.Server, e.Object)
		b.WriteString("the database is shut down (" + e.Detail + "): bring it online (gfix -online" + t + "), or, from a full shutdown, " +
			"to single-user shutdown (gfix -online single" + t + "), which admits one attachment, of SYSDBA or the owner; " +
			"in single-user or multi-user shutdown it refuses an attachment when that one is taken or the user is neither")
	case KindDenied:
		b.WriteString("permission denied: the server process cannot open it (" + e.Detail + ")")
	case KindExists:
		b.WriteString("database already exists (--replace replaces it once the new one is complete)")
	case KindBusy:
		b.WriteString("service busy, another operation is running (" + e.Detail + ")")
	case KindLost:
		b.WriteString("connection lost (" + e.Detail + ")")
	case KindInterrupted:
		b.WriteString("interrupted")
	case KindWireCrypt:
		b.WriteString("wire encryption " + e.Detail)
	case KindAuth:
		b.WriteString("login refused: " + e.Detail)
	default:
		b.WriteString(e.Detail)
	}
	if e.After != "" {
		b.WriteString("; gbak's last step: " + e.After)
	}
	if e.Outcome != "" {
		b.WriteString("; " + e.Outcome)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// fail wraps a driver error into an *Error for this server. The password
// is scrubbed from the detail in case a driver ever echoes it.
func (s Server) fail(op, object string, err error) error {
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	detail := oneLine(err.Error())
	// Firebird 3 adds the provider's step to a failed attachment: words
	// of its code, not a cause ("file x.fdb is not a valid database;
	// IProvider::attachDatabase failed when loading mapping cache").
	detail = strings.ReplaceAll(detail, "; IProvider::attachDatabase failed when loading mapping cache", "")
	if s.Password != "" {
		detail = strings.ReplaceAll(detail, s.Password, "***")
	}
	kind := kindOf(err)
	switch kind {
	case KindLogin, KindUnreachable, KindNotFirebird, KindWireCrypt, KindAuth:
		// Whatever was to be done, the connection failed.
		op, object = "connect to", ""
	}
	switch kind {
	case KindWireCrypt:
		if strings.Contains(detail, "wire_crypt=required") {
			detail = "required, but the server did not encrypt the connection (--wire-crypt required)"
		} else {
			detail = fmt.Sprintf("refused: --wire-crypt %s and the server's WireCrypt setting do not match (%s)", s.wireCrypt(), detail)
		}
	case KindAuth:
		detail = fmt.Sprintf("no authentication plugin both sides accept (offered %s; see the server's AuthServer and firebird.log) (%s)", s.authList(), detail)
	default:
		detail = s.notAllowed(err, detail)
	}
	e := &Error{Op: op, Object: object, Server: s.Addr, Kind: kind, Detail: detail, Err: err}
	if kind == KindNoDatabase && !strings.Contains(detail, "not a valid database") {
		e.Outcome = s.relativeHere(object)
	}
	return e
}

// notAllowed says which right the user lacks where the server refused
// one: the driver's words for isc_adm_task_denied stop at "Unable to
// perform operation" (Firebird's go on "You must be either SYSDBA or
// owner of the database"), and gbak's "no permission for CREATE access
// to DATABASE" does not say that the right can be granted.
func (s Server) notAllowed(err error, detail string) string {
	var fe *fb.FbError
	if !errors.As(err, &fe) {
		return detail
	}
	switch {
	case slices.Contains(fe.GDSCodes, fb.ISCAdmTaskDenied):
		return fmt.Sprintf("permission denied: the user %s (ISC_USER) is neither SYSDBA nor the owner of the database, which the server requires for this (%s)", s.User, detail)
	case slices.Contains(fe.GDSCodes, fb.ISCNoPriv) && strings.Contains(detail, "no permission for CREATE access to DATABASE"):
		return fmt.Sprintf("permission denied: the user %s (ISC_USER) may not create databases: connect as SYSDBA, or grant it with GRANT CREATE DATABASE TO USER %s (Firebird 3 and later) (%s)", s.User, s.User, detail)
	}
	return detail
}

// oneLine joins a multi-line server message ("I/O error…\nError while
// trying to open file\nNo such file or directory") into one line.
func oneLine(s string) string {
	f := strings.Fields(strings.ReplaceAll(s, "\n", "; "))
	return strings.TrimSuffix(strings.Join(f, " "), ";")
}

// kindOf classifies a driver error by its GDS codes first and its text
// second (the Services API reports some failures without codes).
func kindOf(err error) Kind {
	if errors.Is(err, fb.ErrServiceBusy) {
		return KindBusy
	}
	var fe *fb.FbError
	if errors.As(err, &fe) {
		switch {
		case slices.Contains(fe.GDSCodes, fb.ISCLogin):
			return KindLogin
		case slices.Contains(fe.GDSCodes, fb.ISCSvcInUse):
			return KindBusy
		case slices.Contains(fe.GDSCodes, fb.ISCDbOrFileExists):
			return KindExists
		case slices.Contains(fe.GDSCodes, fb.ISCNetworkError), slices.Contains(fe.GDSCodes, fb.ISCNetReadErr):
			return KindLost
		case slices.Contains(fe.GDSCodes, fb.ISCWirecryptIncompatible):
			return KindWireCrypt
		case slices.Contains(fe.GDSCodes, fb.ISCLoginError):
			return KindAuth
		case slices.Contains(fe.GDSCodes, fb.ISCShutdown):
			return KindShutdown
		}
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "_parse_connect_response() protocol error"):
		// The first reply to the connect request was no Firebird
		// operation: an HTTP, SSH or other server at that port.
		return KindNotFirebird
	case strings.Contains(msg, "user name and password are not defined"):
		return KindLogin
	case strings.Contains(msg, "wire_crypt=required"):
		return KindWireCrypt
	case strings.Contains(msg, "not in the client allow-list"):
		return KindAuth
	case strings.Contains(msg, "Permission denied"):
		// The I/O error's last line is the operating system's; tested
		// before "Can't open database file", which a denied file gives too.
		return KindDenied
	case strings.Contains(msg, "No such file or directory"),
		strings.Contains(msg, "cannot find the file specified"), // (a Windows server's words)
		strings.Contains(msg, "Can't open database file"),
		strings.Contains(msg, "not a valid database"):
		return KindNoDatabase
	case strings.Contains(msg, "already exists"):
		return KindExists
	}
	if errors.Is(err, context.Canceled) {
		return KindInterrupted
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return KindUnreachable
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindUnreachable
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed) {
		return KindLost
	}
	return KindServer
}

// errorf builds an *Error of a given kind that did not come from the driver.
func (s Server) errorf(kind Kind, op, object, format string, args ...any) error {
	return &Error{Op: op, Object: object, Server: s.Addr, Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
