package view

import (
	"math"
	"testing"
	"time"
)

func TestCells(t *testing.T) {
	v := 0.5877
	for _, c := range []struct {
		cell           Cell
		human, machine string
	}{
		{Str("ORDER_LINE"), "ORDER_LINE", "ORDER_LINE"},
		{StrP(nil), "", ""},
		{Int(-12), "-12", "-12"},
		{IntP(nil), "", ""},
		{Num(0.3), "0.3", "0.3"},
		{Num(12), "12", "12"},
		{Num(0.012345), "0.0123", "0.012345"},
		{Num(1234.5678), "1235", "1234.5678"},
		{Num(math.NaN()), "–", ""},
		{NumP(&v), "0.588", "0.5877"},
		{Bytes(37329305), "35.6 MiB", "37329305"},
		{Bytes(512), "512 B", "512"},
		{BytesP(nil), "", ""},
		{Sec(13304.334), "3:41:44", "13304.334"},
		{Sec(12.3456), "12.346 s", "12.3456"},
		{SecP(nil), "", ""},
		{Share(0.69), "69.0 %", "0.69"},
		{Share(1), "100.0 %", "1"},
		// ORDERS_CARRIER's total dup 99989 of 100000 keys (shop-gstat-a-r):
		// 11 distinct values, not "100.0 %", all of them.
		{Share(99989.0 / 100000), "99.9 %", "0.99989"},
		// The 2.5 jira header's OST - OIT = -1 over 20000: not "-0.0 %".
		{Share(-1.0 / 20000), "0.0 %", "-0.00005"},
		{Share(math.Inf(1)), "–", ""},
		{Percent(69), "69 %", "0.69"},
		{Percent(100), "100 %", "1"},
		{Percent(0), "0 %", "0"},
		{Change(-0.5877), "-58.8 %", "-0.5877"},
		{Change(0), "+0.0 %", "0"},
		{Ratio(0.451 / 0.244), "×1.85", "1.848360655737705"},
		{Ratio(0.687), "×0.687", "0.687"},
		{Ratio(2), "×2.00", "2"},
		{Time(time.Date(2024, 12, 2, 14, 14, 22, 0, time.UTC)), "2024-12-02 14:14:22", "2024-12-02T14:14:22"},
		{TimeP(nil), "", ""},
		{Null(RatioKind), "", ""},
	} {
		if h, m := c.cell.Human(), c.cell.Machine(); h != c.human || m != c.machine {
			t.Errorf("%+v: Human %q Machine %q, want %q %q", c.cell, h, m, c.human, c.machine)
		}
	}
	if Bytes(8192).Value() != 8192 || !math.IsNaN(Str("x").Value()) || !math.IsNaN(IntP(nil).Value()) || Share(0.5).Value() != 0.5 {
		t.Error("Value")
	}
}
