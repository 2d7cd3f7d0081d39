package report

import (
	"bytes"
	"strings"
	"testing"
)

// gstat -e was read and then dropped: the analysis of shop-gstat-e.txt
// said nothing of its "Data pages: total 6604, encrypted 0, non-crypted
// 6604" lines.
func TestGstatEncryptionShown(t *testing.T) {
	a := gstatShop(t, "shop-gstat-e.txt")[0]
	if len(a.Encryption) != 4 || a.Encryption[1].Kind != "Index" || a.Encryption[1].Total != 1342 {
		t.Fatalf("encryption %+v", a.Encryption)
	}
	var b bytes.Buffer
	if err := WriteGstatRun(&b, Text, a, GstatOptions{}, 0, false); err != nil {
		t.Fatal(err)
	}
	want := "Encryption      data 0/6604, index 0/1342, blob 0/0, generator 0/1 pages encrypted\n"
	if !strings.Contains(b.String(), want) || strings.Contains(b.String(), "Encryption (gstat -e)") {
		t.Errorf("text lacks %q (or repeats it as a table):\n%s", want, b.String())
	}
	b.Reset()
	if err := WriteGstatRun(&b, CSV, a, GstatOptions{}, 0, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "table,pages,total,encrypted,non-crypted\nencryption,Data,6604,0,6604\n") {
		t.Errorf("CSV:\n%s", b.String())
	}
}
