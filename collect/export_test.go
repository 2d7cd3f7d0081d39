package collect

import (
	"context"
	"database/sql"
)

// OpenForTest lets the live tests hold a transaction in another attachment.
func OpenForTest(ctx context.Context, s Server, database string) (*sql.DB, error) {
	return s.open(ctx, database)
}
