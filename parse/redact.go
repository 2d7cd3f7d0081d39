package parse

import "regexp"

// passwordRe finds a password on a command line pasted above a tool's
// output: gstat/isql/gbak -p[assword] X, gfix -pa X, fbsvcmgr's
// "password X" and ISC_PASSWORD=X. ("-p 8192", gbak's page size, is
// hidden too: harmless.)
var passwordRe = regexp.MustCompile(`(?i)((?:^|[\s>])(?:-p(?:a(?:s(?:s(?:w(?:o(?:r(?:d)?)?)?)?)?)?)?|password)\s+)("[^"]*"|\S+)|(ISC_PASSWORD=)("[^"]*"|\S+)`)

// Redact hides passwords in a line quoted in a notice: fbdiag's output is
// pasted into tickets and mails, and must not carry the password the DBA
// typed (see the command line in public/gbak/14_cli_backup_restore...).
func Redact(line []byte) []byte {
	if !passwordRe.Match(line) {
		return line
	}
	return passwordRe.ReplaceAll(line, []byte("${1}${3}***"))
}
