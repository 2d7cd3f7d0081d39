//go:build !linux

package heapgoal

func adviseHeap(int, uintptr) {}

func hugePagesPay(uintptr, uintptr) bool { return false }
