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
	// Warn, when set, is told about an unencrypted connection and about
	// the temporary files a killed run left beside a backup or database.
	Warn func(msg string)

	// dialTimeout replaces DialTimeout when set (tests that wait for it).
	dialTimeout time.Duration
}

// connectWithin is how long connecting and logging in may take.
func (s Server) connectWithin() time.Duration {
	if s.dialTimeout > 0 {
		return s.dialTimeout
	}
	return DialTimeout
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
		if hasCredentials(s + "/") {
			return "", fmt.Errorf("server %q names a user and password: %s; give HOST", maskCredentials(s), credentialsFromEnv)
		}
		return "", fmt.Errorf("server %q: want HOST, HOST:PORT or HOST/PORT (IPv6 as [::1]:3050)", maskCredentials(s))
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
	if at := strings.LastIndexByte(host, '@'); at > 0 {
		// USER@HOST (as ssh takes it): the driver read it as a URL and
		// failed with "invalid URL escape "%40"".
		return "", fmt.Errorf("server %q names a user: %s; give HOST", s, userFromEnv)
	}
	if host == "" || strings.ContainsAny(host, "/ \t[]") {
		return bad()
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return bad()
	}
	return net.JoinHostPort(host, port), nil
}

// SplitDatabase splits a database or backup file named as isql, gstat and
// gbak take it, with its server in front: HOST:PATH, HOST/PORT:PATH,
// [IPV6]:PATH or [IPV6]/PORT:PATH. It gives the server as ParseServer does
// and the path; a name without a server (a path, an alias, a Windows path
// such as C:\data\x.fdb or C:/data/x.fdb) gives "" and the name as it
// is. The server part is read by ParseServer's rules, so "/data/a:b.fdb"
// (no host) or "data/x:y" (no port) are names, not servers. A Firebird URL
// (inet://host/path, xnet://…) is an error: the driver does not take one.
func SplitDatabase(name string) (server, path string, err error) {
	if i := strings.Index(name, "://"); i > 0 && strings.Trim(strings.ToLower(name[:i]), "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
		return "", name, fmt.Errorf("%q is a Firebird URL (%s://): give the server with --server and the path alone", maskCredentials(name), name[:i])
	}
	if hasCredentials(name) {
		return "", name, fmt.Errorf("%q names a user and password: %s; give HOST:PATH", maskCredentials(name), credentialsFromEnv)
	}
	var end int // the colon between the server and the path
	if strings.HasPrefix(name, "[") {
		rb := strings.IndexByte(name, ']')
		if rb < 0 {
			return "", name, nil
		}
		end = strings.IndexByte(name[rb:], ':')
		if end < 0 {
			return "", name, nil
		}
		end += rb
	} else {
		end = strings.IndexByte(name, ':')
		if end <= 1 {
			// No colon, none before it, or a drive letter (C:\x, C:/x).
			return "", name, nil
		}
	}
	host := name[:end]
	if strings.TrimSpace(host) != host || strings.Contains(host, `\`) {
		return "", name, nil
	}
	if at := strings.LastIndexByte(host, '@'); at > 0 && !strings.ContainsAny(host[:at], `/\`) {
		if _, perr := ParseServer(host[at+1:]); perr == nil {
			return "", name, fmt.Errorf("%q names a user: %s; give HOST:PATH", name, userFromEnv)
		}
	}
	addr, perr := ParseServer(host)
	if perr != nil {
		return "", name, nil
	}
	return addr, name[end+1:], nil
}

// credentialsFromEnv says where the user and password come from instead.
const credentialsFromEnv = "fbdiag reads them from ISC_USER and ISC_PASSWORD only (a command line is visible to every user through ps)"

// userFromEnv says where the user comes from instead of USER@HOST.
const userFromEnv = "fbdiag reads the user from ISC_USER (and the password from ISC_PASSWORD)"

// hasCredentials reports whether name begins USER:PASSWORD@HOST followed
// by ":" or "/" (the driver's DSN form, sysdba:pw@db1:/data/x.fdb), where
// the part before the "@" has no slash: an alias with an "@" (db1:shop@2024)
// is not one.
func hasCredentials(name string) bool { return credentialsEnd(name) >= 0 }

// credentialsEnd is the index of the "@" that ends USER:PASSWORD in name,
// -1 when there is none. It is the last "@" that fits: a password may
// hold an "@" too (sysdba:p@ss@db1:/x.fdb), a path after the host rarely
// does, and a wrong pick then hides more, never less.
func credentialsEnd(name string) int {
	for at := strings.LastIndexByte(name, '@'); at >= 0; at = strings.LastIndexByte(name[:at], '@') {
		before, after := name[:at], name[at+1:]
		if strings.ContainsAny(before, `/\`) || !strings.Contains(before, ":") {
			continue
		}
		end := strings.IndexAny(after, ":/")
		if end <= 0 {
			continue
		}
		if _, err := ParseServer(after[:end]); err == nil {
			return at
		}
	}
	return -1
}

// maskCredentials hides the password of a USER:PASSWORD@ in name (also
// after a URL's sche://) before name is quoted in an error.
func maskCredentials(name string) string {
	start := 0
	if i := strings.Index(name, "://"); i >= 0 {
		start = i + 3
	}
	rest := name[start:]
	at := credentialsEnd(rest + "/") // (a server alone: SYSDBA:pw@db1)
	if at < 0 {
		at = strings.IndexByte(rest, '@')
	}
	if at < 0 {
		return name
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 {
		return name
	}
	return name[:start+colon+1] + "***" + rest[at:]
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
	dctx, cancel := context.WithTimeout(ctx, s.connectWithin())
	defer cancel()
	sm, err := fb.NewServiceManagerContext(dctx, s.Addr, s.User, s.Password, s.serviceOptions())
	if err != nil {
		return nil, s.dialTimedOut(ctx, dctx, err)
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
	pctx, cancel := context.WithTimeout(ctx, s.connectWithin())
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, s.dialTimedOut(ctx, pctx, err)
	}
	return db, nil
}

// dialTimedOut says how long fbdiag waited when connecting ran out of
// its time (dctx, made with connectWithin) rather than ended with ctx:
// Go's "context deadline exceeded" or "i/o timeout" alone do not.
func (s Server) dialTimedOut(ctx, dctx context.Context, err error) error {
	// (The driver's own socket deadline may fire just before dctx's.)
	d, ok := dctx.Deadline()
	if ctx.Err() == nil && ok && !time.Now().Before(d) {
		return fmt.Errorf("no answer within %v: %w", s.connectWithin(), err)
	}
	return err
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
