package parse

// ClassifyGbakMessage classifies one gbak message (the text after the
// statistics columns, leading blanks removed) as the reader does, for a
// program that sees gbak's lines one at a time, such as a progress
// display of a live backup. Line, Has and the statistics stay zero.
func ClassifyGbakMessage(msg string) GbakLine {
	var r GbakReader
	r.cur.Message = msg
	r.classify()
	return r.cur
}
