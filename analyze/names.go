package analyze

// QualifiedName names an object of Firebird 6, whose tables and indices
// live in schemas, as SCHEMA.NAME, so that two schemas' ORDERS stay two
// objects (firebird#8773 made gstat print the schema for that reason);
// before 6.0, and wherever the schema is not known, the name alone. It is
// a name to read, not SQL: the statements quote their names (QuoteName).
func QualifiedName(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// QualifiedName is the table's name with its schema (Firebird 6).
func (t *TableStats) QualifiedName() string { return QualifiedName(t.Schema, t.Name) }

// QualifiedName is the index's name with its schema (Firebird 6).
func (ix *IndexStats) QualifiedName() string { return QualifiedName(ix.Schema, ix.Name) }

// QualifiedTable is the index's table with its schema (Firebird 6): an
// index lives in its table's schema.
func (ix *IndexStats) QualifiedTable() string { return QualifiedName(ix.Schema, ix.Table) }
