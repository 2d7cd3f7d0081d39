package collect

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	fb "github.com/nakagami/firebirdsql"
)

// DefaultPort is Firebird's registered TCP port (gds_db).
const DefaultPort = "3050"

// DialTimeout bounds connecting and logging in; a server that does not
// answer within it is reported as unreachable.
const DialTimeout = 15 * time.Second

// Server is where and as whom fbdiag connects. Password is never printed:
// String and the errors of this package show only Addr and User.
type Server struct {
	Addr     string // host:port
	User     string
	Password string
	// WireCrypt is the level of wire encryption asked for (enabled
	// when empty); Auth the authentication plugins offered, in order
	// (the driver's Srp256, Srp, Legacy_Auth when empty). See security.go.
	WireCrypt WireCrypt
	Auth      []string
	// Warn, when set, is told about an unencrypted connection.
	Warn func(msg string)
}

// ParseServer turns --server into host:port. It takes HOST, HOST:PORT,
// Firebird's own HOST/PORT (as in isql-fb db1/3051:employee), [IPV6],
// [IPV6]:PORT, [IPV6]/PORT and a bare IPv6 address; an empty value means
// localhost, and the port defaults to 3050.
func ParseServer(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return net.JoinHostPort("localhost", DefaultPort), nil
	}
	bad := func() (string, error) {
		return "", fmt.Errorf("server %q: want HOST, HOST:PORT or HOST/PORT (IPv6 as [::1]:3050)", s)
	}
	host, port := s, DefaultPort
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return bad()
		}
		host = s[1:end]
		rest := s[end+1:]
		if rest != "" {
			if rest[0] != ':' && rest[0] != '/' {
				return bad()
			}
			port = rest[1:]
		}
		if !strings.Contains(host, ":") {
			return bad()
		}
	case strings.Count(s, ":") > 1:
		// A bare IPv6 address; its port needs the brackets.
		if net.ParseIP(s) == nil {
			return bad()
		}
	default:
		if i := strings.IndexAny(s, ":/"); i >= 0 {
			host, port = s[:i], s[i+1:]
		}
	}
	if host == "" || strings.ContainsAny(host, "/ \t[]") {
		return bad()
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return bad()
	}
	return net.JoinHostPort(host, port), nil
}

// String shows the server without the password.
func (s Server) String() string { return s.User + "@" + s.Addr }

// dsn builds the database/sql data source name. It holds the password,
// so it stays in memory and is never printed. The driver's defaults
// (Srp256 with Srp fallback, wire encryption enabled) are what a Firebird 3
// server with WireCrypt = Required expects; --wire-crypt and --auth add
// wire_crypt and auth_plugin_name/auth_plugin_list, which the driver
// enforces before it sends the attach request.
func (s Server) dsn(database string) string {
	path := database
	if strings.HasPrefix(path, "/") && !strings.Contains(path[1:], "/") {
		// The driver treats a single path segment as an alias; keep a
		// root-level file a path.
		path = "/" + path
	}
	q := url.Values{}
	if w := s.wireCrypt(); w != WireCryptEnabled {
		q.Set("wire_crypt", string(w))
	}
	if len(s.Auth) > 0 {
		q.Set("auth_plugin_name", s.Auth[0])
		q.Set("auth_plugin_list", s.authList())
	}
	u := url.URL{User: url.UserPassword(s.User, s.Password), Host: s.Addr, Path: path, RawQuery: q.Encode()}
	return strings.TrimPrefix(u.String(), "//")
}

// service attaches to the service manager.
func (s Server) service(ctx context.Context) (*fb.ServiceManager, error) {
	dctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	sm, err := fb.NewServiceManagerContext(dctx, s.Addr, s.User, s.Password, s.serviceOptions())
	if err != nil {
		return nil, err
	}
	if err := s.checkWire(sm.WireCipher()); err != nil {
		sm.Close()
		return nil, err
	}
	return sm, nil
}

// open attaches to a database over SQL and checks the attachment works.
func (s Server) open(ctx context.Context, database string) (*sql.DB, error) {
	db, err := sql.Open("firebirdsql", s.dsn(database))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	pctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Version asks the server for its version banner, e.g.
// "LI-V3.0.11.33637 Firebird 3.0".
func (s Server) Version(ctx context.Context) (string, error) {
	sm, err := s.service(ctx)
	if err != nil {
		return "", s.fail("connect to", "", err)
	}
	defer sm.Close()
	v, err := sm.GetServerVersionString()
	if err != nil {
		return "", s.fail("read the version of", "", err)
	}
	return v, nil
}
