package collect

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	fb "github.com/nakagami/firebirdsql"
)

// Snapshot describes one collected gstat run: what was asked of which
// server, and when. It is written as comment lines before the gstat text
// (see WritePreamble) and returned to the caller.
type Snapshot struct {
	Server        string    `json:"server"`         // host:port
	ServerVersion string    `json:"server_version"` // e.g. "LI-V3.0.11.33637 Firebird 3.0"
	WireCrypt     string    `json:"wire_crypt"`     // the level asked: enabled, required or disabled
	WireCipher    string    `json:"wire_cipher"`    // "Arc4" on Firebird 3; "" = not encrypted
	Database      string    `json:"database"`       // path or alias, as the server knows it
	Switches      string    `json:"switches"`       // canonical gstat switches, e.g. "-d -i -r"
	CollectedAt   time.Time `json:"collected_at"`   // when the statistics service started (UTC)
	Lines         int       `json:"lines"`          // gstat lines received
}

// PreamblePrefix starts every line fbdiag adds in front of the gstat text.
const PreamblePrefix = "# fbdiag collect: "

// WritePreamble writes the snapshot's description as comment lines, so a
// snapshot file says where it came from even after it is copied away.
func (s *Snapshot) WritePreamble(w io.Writer) error {
	cipher := s.WireCipher
	if cipher == "" {
		cipher = "none"
	}
	_, err := fmt.Fprintf(w, "%sserver %s (%s, wire encryption %s)\n%sdatabase %s\n%sswitches %s\n%scollected %s\n",
		PreamblePrefix, s.Server, s.ServerVersion, cipher,
		PreamblePrefix, s.Database,
		PreamblePrefix, s.Switches,
		PreamblePrefix, s.CollectedAt.Format(time.RFC3339))
	return err
}

// Stats runs gstat on database through the Services API
// (isc_action_svc_db_stats) and streams the snapshot to w: the preamble,
// then gstat's text line by line as the server produces it. The returned
// Snapshot is filled even on failure as far as it got.
func (s Server) Stats(ctx context.Context, database string, sw Switches, w io.Writer) (*Snapshot, error) {
	snap := &Snapshot{Server: s.Addr, Database: database, Switches: sw.String(), WireCrypt: string(s.wireCrypt())}
	sm, err := s.service(ctx)
	if err != nil {
		return snap, s.fail("connect to", "", err)
	}
	defer sm.Close()
	if snap.ServerVersion, err = sm.GetServerVersionString(); err != nil {
		return snap, s.fail("read the version of", "", err)
	}
	snap.WireCipher = sm.WireCipher()
	snap.CollectedAt = time.Now().UTC().Truncate(time.Second)
	if err := snap.WritePreamble(w); err != nil {
		return snap, err
	}
	spb := fb.NewXPBWriterFromTag(actionDbStats).
		PutString(spbDbName, database).
		PutInt32(spbOptions, sw.options())
	if len(sw.Tables) > 0 && !sw.Header {
		spb.PutString(spbCommandLine, strings.Join(sw.Tables, " "))
	}
	err = runService(ctx, sm, spb.Bytes(), func(l []byte) error {
		snap.Lines++
		return writeLine(w, l)
	}, nil)
	if err != nil {
		return snap, s.fail("read statistics of", database, s.whyNotOpened(ctx, database, err))
	}
	if snap.Lines == 0 {
		return snap, s.errorf(KindServer, "read statistics of", database, "the server sent no output")
	}
	return snap, nil
}

// whyNotOpened makes a statistics failure precise. The statistics service
// says only "Can't open database file X", whether the file is missing or
// the server process may not read it; an attachment's I/O error carries
// the operating system's reason, so one is tried.
func (s Server) whyNotOpened(ctx context.Context, database string, err error) error {
	if !strings.Contains(err.Error(), "Can't open database file") {
		return err
	}
	db, aerr := s.open(ctx, database)
	if aerr == nil {
		db.Close()
		return err
	}
	if k := kindOf(aerr); k == KindNoDatabase || k == KindDenied {
		return aerr
	}
	return err
}
