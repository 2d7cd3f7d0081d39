package analyze

import (
	"fmt"
	"strings"
)

// Index kinds: what an index serves decides how it can be rebuilt or
// dropped. Firebird refuses ALTER INDEX … INACTIVE on the index of a
// PRIMARY KEY, UNIQUE or FOREIGN KEY constraint ("Cannot deactivate index
// used by an integrity constraint", checked on 3.0.11), so such an index
// is rebuilt by a backup and restore or by dropping and adding its
// constraint again.
const (
	IndexPrimaryKey = "primary_key"
	IndexForeignKey = "foreign_key"
	IndexUnique     = "unique" // enforces a UNIQUE constraint
	IndexPlain      = "plain"  // CREATE [UNIQUE] INDEX: no constraint uses it
	IndexSystem     = "system" // an index of a system table
	// IndexUnknown is a name of the user's choosing read without the
	// catalogue: a plain index, or the index of a named constraint.
	IndexUnknown = "unknown"
)

// Where the kind of an index was learnt (IndexStats.KindSource).
const (
	// KindFromCatalogue: RDB$RELATION_CONSTRAINTS, read by fbdiag collect.
	KindFromCatalogue = "catalogue"
	// KindFromName: the names Firebird gives the indices of unnamed
	// constraints, RDB$PRIMARYn, RDB$FOREIGNn and RDB$n (a UNIQUE
	// constraint); the constraints themselves are named INTEG_n.
	KindFromName = "name"
	// KindFromTable: the index belongs to a system table.
	KindFromTable = "system_table"
)

// CatalogueIndex is one user index as the live catalogue describes it:
// the constraint it enforces, if any (RDB$RELATION_CONSTRAINTS). fbdiag
// collect reads it; analyze only receives it.
type CatalogueIndex struct {
	Table string
	Index string
	// Constraint is RDB$CONSTRAINT_NAME and ConstraintType its
	// RDB$CONSTRAINT_TYPE ("PRIMARY KEY", "FOREIGN KEY", "UNIQUE"); both
	// empty for an index no constraint uses.
	Constraint     string
	ConstraintType string
}

type catalogueKey struct{ table, index string }

func catalogueMap(cat []CatalogueIndex) map[catalogueKey]CatalogueIndex {
	if len(cat) == 0 {
		return nil
	}
	m := make(map[catalogueKey]CatalogueIndex, len(cat))
	for _, c := range cat {
		m[catalogueKey{c.Table, c.Index}] = c
	}
	return m
}

// classifyIndex sets Kind, KindSource and Constraint: from the catalogue
// when it lists the index, else from the table (system) or the name.
func classifyIndex(ix *IndexStats, system bool, cat map[catalogueKey]CatalogueIndex) {
	// (No catalogue, the common case: no key made and hashed an index.)
	if len(cat) > 0 && kindFromCatalogue(ix, cat) {
		return
	}
	switch {
	case system:
		ix.Kind, ix.KindSource = IndexSystem, KindFromTable
	default:
		ix.Kind, ix.KindSource = generatedKind(ix.Name), KindFromName
	}
}

// kindFromCatalogue sets ix's kind from the catalogue's entry of it, and
// tells whether it has one.
func kindFromCatalogue(ix *IndexStats, cat map[catalogueKey]CatalogueIndex) bool {
	c, ok := cat[catalogueKey{ix.Table, ix.Name}]
	if !ok {
		return false
	}
	ix.KindSource = KindFromCatalogue
	switch c.ConstraintType {
	case "PRIMARY KEY":
		ix.Kind = IndexPrimaryKey
	case "FOREIGN KEY":
		ix.Kind = IndexForeignKey
	case "UNIQUE":
		ix.Kind = IndexUnique
	default:
		ix.Kind = IndexPlain
	}
	if c.Constraint != "" {
		name := c.Constraint
		ix.Constraint = &name
	}
	return true
}

// generatedKind is the kind an index's name tells: the names Firebird
// gives the indices of unnamed constraints, else IndexUnknown. ("RDB$"
// tested once, not by each of three isGeneratedName.)
func generatedKind(name string) string {
	rest, ok := strings.CutPrefix(name, "RDB$")
	switch {
	case !ok:
		return IndexUnknown
	case isGeneratedName(rest, "PRIMARY"):
		return IndexPrimaryKey
	case isGeneratedName(rest, "FOREIGN"):
		return IndexForeignKey
	case isGeneratedName(rest, ""):
		return IndexUnique
	}
	return IndexUnknown
}

// isGeneratedName matches the names Firebird gives the index of an
// unnamed constraint: prefix and one or more ASCII digits (RDB$PRIMARY12,
// RDB$FOREIGN7, RDB$3). A loop, not a regexp: it runs for every index of
// a big file.
func isGeneratedName(name, prefix string) bool {
	digits, ok := strings.CutPrefix(name, prefix)
	if !ok || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// IsConstraintIndex tells whether Firebird refuses to deactivate it.
func (ix *IndexStats) IsConstraintIndex() bool {
	switch ix.Kind {
	case IndexPrimaryKey, IndexForeignKey, IndexUnique:
		return true
	}
	return false
}

// KindText says what the index is and how fbdiag knows, for reasons.
func (ix *IndexStats) KindText() string { return string(ix.appendKindText(nil)) }

// appendKindText appends KindText.
func (ix *IndexStats) appendKindText(b []byte) []byte {
	what := ix.kindWhat()
	switch {
	case ix.KindSource == KindFromCatalogue && ix.Constraint != nil:
		b = append(b, what...)
		b = append(b, " (constraint "...)
		b = append(b, *ix.Constraint...)
		return append(b, ", from RDB$RELATION_CONSTRAINTS)"...)
	case ix.KindSource == KindFromCatalogue:
		b = append(b, what...)
		return append(b, " (from RDB$RELATION_CONSTRAINTS)"...)
	case ix.KindSource == KindFromName && ix.Kind != IndexUnknown:
		b = append(b, what...)
		return append(b, " (by its name, which Firebird gives the index of an unnamed constraint)"...)
	case ix.Kind == IndexUnknown:
		return append(b, "a plain index or the index of a named constraint (the gstat text cannot tell; fbdiag collect reads the catalogue)"...)
	}
	return append(b, what...)
}

// kindWhat names the index's kind.
func (ix *IndexStats) kindWhat() string {
	var what string
	switch ix.Kind {
	case IndexPrimaryKey:
		what = "the index of a PRIMARY KEY"
	case IndexForeignKey:
		what = "the index of a FOREIGN KEY"
	case IndexUnique:
		what = "the index of a UNIQUE constraint"
	case IndexPlain:
		what = "a plain index (no constraint uses it)"
	case IndexSystem:
		what = "an index of a system table"
	}
	return what
}

// RebuildAdvice is how to rebuild this index, as statements to run.
// From Firebird 3.0 (ODS 12) ALTER INDEX … ACTIVE rebuilds an index that
// is already active, the index of a constraint too (Firebird 5.0
// Language Reference, ALTER INDEX: "Rebuilds the index (even if already
// active)", and "works just as well with constraint indexes"; checked on
// 3.0.11: RDB$PRIMARY1 of 20,000 keys went from 35 to 31 leaf pages):
// no INACTIVE step, which a constraint's index refuses and which leaves
// a plain index missing until the ACTIVE. Before ODS 12, or when the
// header is not in the input, the older advice stands, with the 3.0 way
// named.
func (ix *IndexStats) RebuildAdvice(schema string, odsMajor *int) string {
	return string(ix.appendRebuildAdvice(nil, schema, odsMajor))
}

// appendRebuildAdvice appends RebuildAdvice (index-sparse fires on every
// index of a big file made of sparse ones: + made a string of five parts
// and another of the quoted name).
func (ix *IndexStats) appendRebuildAdvice(b []byte, schema string, odsMajor *int) []byte {
	if ix.Kind == IndexSystem {
		return append(b, "only a gbak backup and restore rebuilds the index of a system table"...)
	}
	if odsMajor != nil && *odsMajor >= 12 {
		b = appendQuoteName(append(b, "ALTER INDEX "...), schema, ix.Name)
		b = append(b, " ACTIVE; (rebuilds it while it stays active"...)
		return append(append(b, ix.activeNote()...), ')')
	}
	switch ix.Kind {
	case IndexPlain, IndexUnknown:
		b = appendQuoteName(append(b, "ALTER INDEX "...), schema, ix.Name)
		b = appendQuoteName(append(b, " INACTIVE; ALTER INDEX "...), schema, ix.Name)
		b = append(b, " ACTIVE;"...)
		if ix.Kind == IndexUnknown {
			b = append(b, " (if Firebird refuses with \"Cannot deactivate index used by an integrity constraint\" "+
				"or \"by a PRIMARY/UNIQUE constraint\", it serves a constraint: rebuild it by a gbak backup and restore instead)"...)
		}
	default:
		b = append(b, "Firebird refuses ALTER INDEX ... INACTIVE on a constraint's index: rebuild it by a gbak backup and restore, or by "...)
		b = append(b, ix.dropConstraint(schema)...)
		b = append(b, " and adding it again with the same definition"...)
		b = append(b, ix.referencedBy()...)
	}
	if odsMajor == nil {
		b = appendQuoteName(append(b, " (on Firebird 3.0 and later ALTER INDEX "...), schema, ix.Name)
		b = append(b, " ACTIVE; alone rebuilds it, constraint index or not)"...)
	}
	return b
}

// activeNote says what the rebuild of a constraint's index keeps.
func (ix *IndexStats) activeNote() string {
	if ix.IsConstraintIndex() {
		return ", constraint and all"
	}
	return ""
}

// DropAdvice is what to do with an index that does not pay its way.
func (ix *IndexStats) DropAdvice(schema string) string {
	return string(ix.appendDropAdvice(nil, schema))
}

// appendDropAdvice appends DropAdvice.
func (ix *IndexStats) appendDropAdvice(b []byte, schema string) []byte {
	switch ix.Kind {
	case IndexPlain:
		b = appendQuoteName(append(b, "if no query plan uses it: DROP INDEX "...), schema, ix.Name)
		return append(b, "; or replace it by a compound index that starts with a selective column"...)
	case IndexUnknown:
		b = appendQuoteName(append(b, "if no query plan uses it: DROP INDEX "...), schema, ix.Name)
		return append(b, "; (Firebird refuses if it serves a constraint: a foreign key keeps its index while the constraint exists)"...)
	case IndexForeignKey:
		b = append(b, "Firebird keeps a foreign key's index while the constraint exists; it goes only with the reference check, by "...)
		return append(b, ix.dropConstraint(schema)...)
	}
	return append(b, "the index enforces a constraint and stays while the constraint exists"...)
}

// StatisticsAdvice recomputes the stored selectivity the optimizer uses.
func (ix *IndexStats) StatisticsAdvice(schema string) string {
	return "SET STATISTICS INDEX " + QuoteName(schema, ix.Name) + ";"
}

// dropConstraint names the statement that drops the index's constraint;
// without the catalogue the constraint name comes from a query.
func (ix *IndexStats) dropConstraint(schema string) string {
	table := QuoteName(schema, ix.Table)
	if ix.Constraint != nil {
		return fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s", table, QuoteIdent(*ix.Constraint))
	}
	return fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT <the name from SELECT RDB$CONSTRAINT_NAME FROM RDB$RELATION_CONSTRAINTS WHERE RDB$INDEX_NAME = %s>",
		table, sqlString(ix.Name))
}

func (ix *IndexStats) referencedBy() string {
	if ix.Kind == IndexPrimaryKey || ix.Kind == IndexUnique {
		return " (first dropping the foreign keys that reference it)"
	}
	return ""
}
