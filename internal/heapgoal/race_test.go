//go:build race

package heapgoal

// raceDetector: the race detector's shadow memory takes page faults of
// its own for every page the heap touches.
const raceDetector = true
