package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// helperEnv makes the test binary run fbdiag itself (TestMain): the
// tests that need a process of their own (a signal, its peak memory)
// run the CLI through the test binary.
const helperEnv = "FBDIAG_TEST_AS_FBDIAG"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(run(append([]string{"fbdiag"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// fbdiagCommand is fbdiag args as a process of its own.
func fbdiagCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	return cmd
}

// withContext is cmd killed when ctx ends.
func withContext(ctx context.Context, cmd *exec.Cmd) *exec.Cmd {
	c := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	c.Env = cmd.Env
	return c
}
