package view

import (
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
)

// Rules lays out the health rules and their thresholds (fbdiag rules):
// the table "rules", a row per rule, and the table "thresholds", a row
// per threshold in the order of the rules. Text prints both as blocks,
// each threshold under its key with its source.
func Rules(c analyze.RuleCatalogue) *Doc {
	rules := &Table{Name: "rules", Title: "Health rules", Noun: "rules", Blocks: true, Rows: [][]Cell{}, Columns: []Column{
		{Key: "rule", Title: "rule", Block: BlockHead},
		{Key: "scope", Title: "scope", Block: BlockHead},
		{Key: "severities", Title: "severities", Block: BlockHead},
		{Key: "summary", Title: "what"},
		{Key: "versions", Title: "applies to"},
		{Key: "advice", Title: "advice"},
	}}
	ths := &Table{Name: "thresholds", Title: "Thresholds", Noun: "thresholds", Blocks: true, Rows: [][]Cell{}, Columns: []Column{
		{Key: "rule", Title: "rule", Block: BlockOmit},
		{Key: "key", Title: "key", Block: BlockHead},
		{Key: "value", Title: "value", Kind: NumberKind, Block: BlockHead},
		{Key: "unit", Title: "unit", Block: BlockHead},
		{Key: "source", Title: "source"},
	}}
	for _, r := range c.Rules {
		sev := make([]string, len(r.Severities))
		for i, s := range r.Severities {
			sev[i] = string(s)
		}
		rules.Rows = append(rules.Rows, []Cell{Str(r.ID), Str(r.Kind), Str(strings.Join(sev, "/")),
			Str(r.Summary), Str(r.AppliesTo), Str(r.Advice)})
		for _, t := range r.Thresholds {
			ths.Rows = append(ths.Rows, []Cell{Str(t.Rule), Str(t.Key()), Num(t.Value), Str(t.Unit), Str(t.Source)})
		}
	}
	return &Doc{Main: "rules", Tables: []*Table{rules, ths}}
}
