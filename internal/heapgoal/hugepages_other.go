//go:build !linux

package heapgoal

func adviseHeap(int, uintptr) {}
