package parse

import "github.com/fbdiag/fbdiag/internal/lazyre"

// passwordRe finds a password on a command line pasted above a tool's
// output: gstat/isql/gbak -p[assword] X, gfix -pa X, fbsvcmgr's
// "password X" and ISC_PASSWORD=X. ("-p 8192", gbak's page size, is
// hidden too: harmless.)
var passwordRe = lazyre.New(`(?i)((?:^|[\s>])(?:-p(?:a(?:s(?:s(?:w(?:o(?:r(?:d)?)?)?)?)?)?)?|password)\s+)("[^"]*"|\S+)|(ISC_PASSWORD=)("[^"]*"|\S+)`)

// Redact hides passwords in a line quoted in a notice: fbdiag's output is
// pasted into tickets and mails, and must not carry the password the DBA
// typed (see the command line in public/gbak/14_cli_backup_restore...).
func Redact(line []byte) []byte {
	if !mayHoldPassword(line) || !passwordRe().Match(line) {
		return line
	}
	return passwordRe().ReplaceAll(line, []byte("${1}${3}***"))
}

// mayHoldPassword reports whether line has what every match of
// passwordRe has, "-p" or "password" in any ASCII case, or a byte beyond
// ASCII (the expression folds "ſ" to "s"): the regular expression took
// 1.4 µs a line, two thirds of reading a log of skipped lines.
func mayHoldPassword(line []byte) bool {
	for i, c := range line {
		switch {
		case c >= 0x80:
			return true
		case c == '-':
			if i+1 < len(line) && line[i+1]|0x20 == 'p' {
				return true
			}
		case c|0x20 == 'p':
			if hasFoldPrefix(line[i:], "password") {
				return true
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether b starts with the lower-case ASCII
// prefix in any case.
func hasFoldPrefix(b []byte, prefix string) bool {
	if len(b) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		if b[i]|0x20 != prefix[i] {
			return false
		}
	}
	return true
}
