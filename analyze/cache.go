package analyze

import (
	"fmt"
	"strings"
)

// Server architectures, as firebird.conf's ServerMode names them.
const (
	SuperServer  = "superserver"
	SuperClassic = "superclassic"
	Classic      = "classic"
)

// ServerSetup is what the user says of the server a database runs on
// (--architecture, --connections, --ram): gstat shows none of it, and the
// memory of the page cache depends on all three. Zero values are unknown.
type ServerSetup struct {
	// Architecture is SuperServer, SuperClassic or Classic.
	Architecture string
	// Connections is the number of attachments to this database at peak.
	Connections int64
	// RAM is the server's memory in bytes.
	RAM int64
}

// ParseArchitecture accepts the names DBAs use: SuperServer (Super, SS,
// ThreadedDedicated), SuperClassic (SC, ThreadedShared) and Classic (CS,
// MultiProcess), in any case.
func ParseArchitecture(s string) (string, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "-", "")) {
	case "superserver", "super", "ss", "threadeddedicated":
		return SuperServer, nil
	case "superclassic", "sc", "threadedshared":
		return SuperClassic, nil
	case "classic", "cs", "multiprocess", "classicserver":
		return Classic, nil
	}
	return "", fmt.Errorf("unknown architecture %q (want superserver, superclassic or classic)", s)
}

// caches is how many page caches the server keeps for one database: one
// shared by every attachment with SuperServer, one per attachment with
// Classic and SuperClassic (firebird.conf, ServerMode); 0 when unknown.
func (s ServerSetup) caches() int64 {
	switch s.Architecture {
	case SuperServer:
		return 1
	case SuperClassic, Classic:
		return s.Connections
	}
	return 0
}

// cacheStats fills the page cache figures of the header.
func cacheStats(h *HeaderStats, srv ServerSetup) {
	if srv.Architecture != "" {
		h.Architecture = &srv.Architecture
	}
	if srv.Connections > 0 {
		h.Connections = &srv.Connections
	}
	if srv.RAM > 0 {
		h.RAMBytes = &srv.RAM
	}
	if h.PageBuffers == nil || h.PageSize == nil || *h.PageBuffers <= 0 {
		return
	}
	one := *h.PageBuffers * *h.PageSize
	h.PageCacheBytes = &one
	if n := srv.caches(); n > 0 {
		h.PageCacheTotalBytes = ptr(one * n)
	}
}
