package collect

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
)

// CreateDatabase creates database on the server (the driver's page size,
// 4096) and runs an isql-style script in it: statements end with the
// current terminator, "SET TERM x ;" changes it, "SET SQL DIALECT" and
// COMMIT are accepted (every statement commits), "--" lines are comments.
// The live tests build their databases with it, so they need no client
// tools.
func (s Server) CreateDatabase(ctx context.Context, database string, script io.Reader) error {
	stmts, err := splitScript(script)
	if err != nil {
		return err
	}
	db, err := sql.Open("firebirdsql_createdb", s.dsn(database))
	if err != nil {
		return s.fail("create", database, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return s.fail("create", database, err)
	}
	defer conn.Close()
	for _, st := range stmts {
		if err := execCommit(ctx, conn, st.text); err != nil {
			return s.fail(fmt.Sprintf("run line %d of the script in", st.line), database, err)
		}
	}
	return nil
}

// execCommit runs one statement in its own transaction and commits it
// (a hard commit, so that the oldest active transaction moves on and the
// versions the script leaves behind become garbage, as after isql).
func execCommit(ctx context.Context, conn *sql.Conn, text string) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, text); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

type statement struct {
	line int
	text string
}

// splitScript splits an isql script into statements.
func splitScript(r io.Reader) ([]statement, error) {
	var out []statement
	term := ";"
	var cur strings.Builder
	start := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 {
			if trimmed == "" || strings.HasPrefix(trimmed, "--") {
				continue
			}
			start = n
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if !strings.HasSuffix(trimmed, term) {
			continue
		}
		text := strings.TrimSpace(cur.String())
		text = strings.TrimSpace(strings.TrimSuffix(text, term))
		cur.Reset()
		upper := strings.ToUpper(text)
		f := strings.Fields(upper)
		switch {
		case len(f) >= 3 && f[0] == "SET" && f[1] == "TERM":
			term = strings.Fields(text)[2]
		case len(f) >= 2 && f[0] == "SET" && f[1] == "SQL":
		case upper == "COMMIT" || upper == "COMMIT WORK":
		default:
			out = append(out, statement{line: start, text: text})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(cur.String()) != "" {
		return nil, fmt.Errorf("script: line %d: statement not terminated by %q", start, term)
	}
	return out, nil
}
