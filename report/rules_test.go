package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fbdiag/fbdiag/analyze"
)

func TestRulesEveryThresholdOnce(t *testing.T) {
	th := analyze.NewThresholds()
	rules := Rules(th)
	if len(rules.Rules) != len(analyze.Rules) {
		t.Fatalf("%d rules, want %d", len(rules.Rules), len(analyze.Rules))
	}
	n := 0
	for _, r := range rules.Rules {
		n += len(r.Thresholds)
	}
	if want := len(th.List()); n != want || len(RulesTable(rules).Rows) != want {
		t.Errorf("%d thresholds in rules, %d table rows, want %d", n, len(RulesTable(rules).Rows), want)
	}
}

func TestWriteRulesFormats(t *testing.T) {
	th, err := analyze.LoadThresholds(strings.NewReader("index-deep.min_depth = 4\n"), "test.rules", analyze.NewThresholds())
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteRules(&text, Text, th); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\n    index-deep.min_depth = 4 levels\n") {
		t.Errorf("text lacks the overridden threshold:\n%s", text.String())
	}
	for _, l := range strings.Split(text.String(), "\n") {
		if utf8.RuneCountInString(l) > 100 {
			t.Errorf("line over 100 columns: %q", l)
		}
	}
	var js bytes.Buffer
	if err := WriteRules(&js, JSON, th); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rules []struct {
			ID         string `json:"id"`
			Thresholds []struct {
				Name  string  `json:"name"`
				Value float64 `json:"value"`
			} `json:"thresholds"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range got.Rules {
		for _, x := range r.Thresholds {
			if r.ID == "index-deep" && x.Name == "min_depth" {
				found = x.Value == 4
			}
		}
	}
	if !found {
		t.Errorf("JSON lacks index-deep.min_depth = 4: %s", js.String())
	}
}
