//go:build !linux

package main

// recache does nothing: only Linux is known to cache a file in folios of
// a size that changes how fast it reads.
func recache(string) error { return nil }
