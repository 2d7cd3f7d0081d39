package analyze

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fbdiag/fbdiag/parse"
)

// gbakVersions are the versions gbak -z prints: its own ("gbak version
// WI-V5.0.1.1333 Firebird 5.0") and the server's ("(access method),
// version "WI-V3.0.11.33666 Firebird 3.0"").
type gbakVersions struct {
	gbak, server     string // as printed
	gbakMM, serverMM [2]int // major and minor, {0, 0} when not read
}

// versionNumber is the major and minor of a Firebird version string
// ("WI-V3.0.11.33666", "LI-V2.5.8.27089").
var versionNumber = regexp.MustCompile(`-[VT](\d+)\.(\d+)`)

func (v *gbakVersions) add(l *parse.GbakLine) {
	switch {
	case l.Object == "server":
		v.server, v.serverMM = l.Name, majorMinor(l.Name)
	case l.Object == "" && strings.HasPrefix(l.Message, "gbak version "):
		v.gbak = strings.TrimPrefix(l.Message, "gbak version ")
		v.gbakMM = majorMinor(v.gbak)
	}
}

func majorMinor(s string) [2]int {
	m := versionNumber.FindStringSubmatch(s)
	if m == nil {
		return [2]int{}
	}
	a, _ := strconv.Atoi(m[1]) // (digits: the pattern's)
	b, _ := strconv.Atoi(m[2])
	return [2]int{a, b}
}

// advice is what to do about a failed run of a gbak newer than its
// server, "" otherwise. A newer gbak asks the server for the system
// tables and columns of its own version: firebird#8003 (gbak 5.0.1.1333
// against 3.0.11: "table id 51 is not defined", RDB$PUBLICATIONS of
// Firebird 4.0; hvlad: "Yes, sure", expected; fixed for ODS 12 in gbak
// 4.0.5 and 5.0.1) and firebird#8128 (gbak 4.0 and 5.0 against a 2.5
// server: "invalid request BLR"). A gbak older than its server is the
// downgrade path (firebird#7087) and is not advised on.
func (v *gbakVersions) advice() string {
	if v.gbakMM == [2]int{} || v.serverMM == [2]int{} {
		return ""
	}
	g, sv := v.gbakMM, v.serverMM
	if g[0] < sv[0] || g[0] == sv[0] && g[1] <= sv[1] {
		return ""
	}
	return fmt.Sprintf("gbak %d.%d (%s) ran against a Firebird %d.%d server (%s): a gbak newer than the server asks for system tables "+
		"and columns the server does not have (firebird#8003: \"table id 51 is not defined\", Firebird 4.0's RDB$PUBLICATIONS, with a 3.0 server; "+
		"firebird#8128: \"invalid request BLR\" with a 2.5 server); run the gbak of the server's own version, %d.%d",
		v.gbakMM[0], v.gbakMM[1], v.gbak, v.serverMM[0], v.serverMM[1], v.server, v.serverMM[0], v.serverMM[1])
}
