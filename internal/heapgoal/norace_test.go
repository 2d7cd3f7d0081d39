//go:build !race

package heapgoal

const raceDetector = false
