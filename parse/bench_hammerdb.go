package parse

import (
	"strconv"

	"github.com/fbdiag/fbdiag/internal/lazyre"
)

// HammerDB TPROC-C result lines, both orders (see benchmark-formats.md §3):
//
//	Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM
//	Vuser 1:TEST RESULT : System achieved 60501 SQL Server TPM at 13207 NOPM
var (
	hdbNewRe    = lazyre.New(`TEST RESULT : System achieved (\d+) NOPM from (\d+) (.+?) TPM`)
	hdbOldRe    = lazyre.New(`TEST RESULT : System achieved (\d+) (.+?) TPM at (\d+) NOPM`)
	hdbVusersRe = lazyre.New(`(?:^|:)(\d+) Active Virtual Users configured`)
)

func (br *BenchReader) hammerdbLine(t string) bool {
	if m := hdbVusersRe().FindStringSubmatch(t); m != nil {
		br.config["vusers"] = m[1]
		return true
	}
	var nopm, tpm, db string
	if m := hdbNewRe().FindStringSubmatch(t); m != nil {
		nopm, tpm, db = m[1], m[2], m[3]
	} else if m := hdbOldRe().FindStringSubmatch(t); m != nil {
		tpm, db, nopm = m[1], m[2], m[3]
	} else {
		return false
	}
	br.finish()
	n, _ := strconv.ParseFloat(nopm, 64)
	tp, _ := strconv.ParseFloat(tpm, 64)
	r := &Run{File: br.lr.Name(), Line: br.lr.Line(), Tool: "hammerdb", Name: "TPROC-C " + db,
		Config: br.configCopy(), Value: n, Unit: rateWords["nopm"], Metrics: map[string]float64{"tpm": tp}}
	br.emit(r)
	return true
}
