package collect

import (
	"fmt"
	"slices"
	"strings"

	fb "github.com/nakagami/firebirdsql"
)

// WireCrypt is --wire-crypt, Firebird's own three levels of wire
// encryption (firebird.conf WireCrypt) on the client's side.
type WireCrypt string

// The levels. Enabled is Firebird's and the driver's default: encrypt when
// the server can. Required refuses a connection that is not encrypted;
// disabled never encrypts (a server with WireCrypt = Required, Firebird
// 3's default, then refuses the connection).
const (
	WireCryptEnabled  WireCrypt = "enabled"
	WireCryptRequired WireCrypt = "required"
	WireCryptDisabled WireCrypt = "disabled"
)

// ParseWireCrypt reads --wire-crypt; empty means enabled.
func ParseWireCrypt(s string) (WireCrypt, error) {
	switch w := WireCrypt(strings.ToLower(strings.TrimSpace(s))); w {
	case "":
		return WireCryptEnabled, nil
	case WireCryptEnabled, WireCryptRequired, WireCryptDisabled:
		return w, nil
	}
	return "", fmt.Errorf("--wire-crypt %q: want required, enabled or disabled", s)
}

// AuthPlugins are the authentication plugins the driver implements, in
// its order of preference (its default auth_plugin_list).
var AuthPlugins = []string{"Srp256", "Srp", "Legacy_Auth"}

// ParseAuth reads --auth, a comma-separated list of the plugins fbdiag may
// log in with, in order of preference; names as firebird.conf spells
// them, in any case. Empty means the driver's default (all three).
func ParseAuth(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		i := slices.IndexFunc(AuthPlugins, func(a string) bool { return strings.EqualFold(a, p) })
		if i < 0 {
			return nil, fmt.Errorf("--auth %q: %q is not a plugin the driver implements (%s)", s, p, strings.Join(AuthPlugins, ", "))
		}
		if slices.Contains(out, AuthPlugins[i]) {
			return nil, fmt.Errorf("--auth %q: %s twice", s, AuthPlugins[i])
		}
		out = append(out, AuthPlugins[i])
	}
	return out, nil
}

// wireCrypt is the level, enabled when unset.
func (s Server) wireCrypt() WireCrypt {
	if s.WireCrypt == "" {
		return WireCryptEnabled
	}
	return s.WireCrypt
}

// authList is the plugins offered, as the driver spells the list.
func (s Server) authList() string {
	if len(s.Auth) == 0 {
		return strings.Join(AuthPlugins, ",")
	}
	return strings.Join(s.Auth, ",")
}

// serviceOptions maps the connection policy onto the driver's Services
// API options. The driver (v0.9.23) takes only on/off for the wire and
// one preferred plugin there: it always offers all three plugins and
// never fails closed, so checkWire enforces required after the login.
func (s Server) serviceOptions() fb.ServiceManagerOptions {
	o := fb.GetDefaultServiceManagerOptions()
	o.WireCrypt = s.wireCrypt() != WireCryptDisabled
	if len(s.Auth) > 0 {
		o.AuthPlugin = s.Auth[0]
	}
	return o
}

// checkWire looks at the cipher a connection negotiated. Unencrypted is
// refused under required; otherwise it is said once through Warn: the
// driver sends the password itself in its attach request
// (isc_dpb_password / isc_spb_password, wireprotocol.go), readable on an
// unencrypted wire whatever the plugin.
func (s Server) checkWire(cipher string) error {
	if cipher != "" {
		return nil
	}
	if s.wireCrypt() == WireCryptRequired {
		return &Error{Op: "connect to", Server: s.Addr, Kind: KindWireCrypt,
			Detail: "required, but the server did not encrypt the connection (--wire-crypt required)"}
	}
	if s.Warn != nil {
		s.Warn(fmt.Sprintf("the connection to %s is not encrypted: the password crossed the network in clear text (--wire-crypt required refuses such a connection)", s.Addr))
	}
	return nil
}
