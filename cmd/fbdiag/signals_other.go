//go:build !unix

package main

import "os"

// endBy ends the program after a signal.
func endBy(os.Signal) { os.Exit(exitError) }
