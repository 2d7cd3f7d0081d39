package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/fbdiag/fbdiag/analyze"
)

// RulesJSON is the JSON form of 'fbdiag rules': every rule with the
// thresholds it uses (an empty list, never null, for a rule without any).
type RulesJSON struct {
	Rules []RuleJSON `json:"rules"`
}

// RuleJSON is one rule and its thresholds.
type RuleJSON struct {
	analyze.Rule
	Thresholds []analyze.Threshold `json:"thresholds"`
}

// Rules pairs every health rule with its thresholds in th.
func Rules(th analyze.Thresholds) RulesJSON {
	list := th.List()
	var out RulesJSON
	for _, r := range analyze.Rules {
		rj := RuleJSON{Rule: r, Thresholds: []analyze.Threshold{}}
		for _, t := range list {
			if t.Rule == r.ID {
				rj.Thresholds = append(rj.Thresholds, t)
			}
		}
		out.Rules = append(out.Rules, rj)
	}
	return out
}

// WriteRules lists the health rules and their thresholds in any format:
// in text one block per rule, the sources wrapped to 100 columns.
func WriteRules(w io.Writer, f Format, th analyze.Thresholds) error {
	rules := Rules(th)
	if f != Text {
		return Write(w, f, rules, func() []*Table { return []*Table{RulesTable(rules)} })
	}
	for i, r := range rules.Rules {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  (%s; %s)\n", r.ID, r.Kind, severities(r.Severities))
		for _, l := range Wrap(r.Summary, "    ", 100) {
			fmt.Fprintln(w, l)
		}
		for _, l := range Wrap("applies to: "+r.AppliesTo, "    ", 100) {
			fmt.Fprintln(w, l)
		}
		if r.Advice != "" {
			for _, l := range Wrap("advice: "+r.Advice, "    ", 100) {
				fmt.Fprintln(w, l)
			}
		}
		for _, x := range r.Thresholds {
			fmt.Fprintf(w, "    %s = %s %s\n", x.Key(), Num(x.Value), x.Unit)
			for _, l := range Wrap(x.Source, "        ", 100) {
				fmt.Fprintln(w, l)
			}
		}
	}
	return nil
}

// RulesTable gives one row per threshold (CSV, markdown).
func RulesTable(rules RulesJSON) *Table {
	t := &Table{Name: "rules", Title: "gstat health rules",
		Columns: Cols("rule", "kind", "severities", "summary", "applies to", "advice", "threshold", ">value", "unit", "source")}
	for _, r := range rules.Rules {
		for _, x := range r.Thresholds {
			t.Add(r.ID, r.Kind, severities(r.Severities), r.Summary, r.AppliesTo, r.Advice, x.Key(), Num(x.Value), x.Unit, x.Source)
		}
	}
	return t
}

func severities(ss []analyze.Severity) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, "/")
}
