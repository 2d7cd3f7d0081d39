//go:build !unix

package main

import "os"

// maxRSSMB is 0: the system does not say.
func maxRSSMB(*os.ProcessState) float64 { return 0 }
