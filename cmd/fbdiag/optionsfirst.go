package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// optionsFirst moves the options written after a command's first file or
// database name in front of it, so that "fbdiag report DIR -o out" reads
// as "fbdiag report -o out DIR", as gstat and gbak themselves take their
// switches anywhere. urfave/cli v2 stops reading options at the first
// argument and would take "-o" and "out" for two more inputs. Everything
// after "--" stays an argument, as do "-" (standard input) and the value
// of an option that takes one (--title -x). An option the command does
// not know is moved too, so that cli names it.
func optionsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == completionFlag {
		// Shell completion reads the words as they were typed: cli
		// looks for its flag last, and at os.Args for an option being
		// completed.
		return args
	}
	flags, cmds := app.Flags, app.Commands
	i, inCommand := 1, false
	for i < len(args) {
		a := args[i]
		if isOption(a) {
			i += optionWidth(flags, a, i, args)
			continue
		}
		next := subcommand(cmds, a)
		if next == nil {
			break
		}
		flags, cmds, inCommand = next.Flags, next.Subcommands, true
		i++
	}
	if !inCommand || i >= len(args) || args[i] == "--" {
		// (fbdiag alone takes no files: an unknown command is cli's to
		// name)
		return args
	}
	var opts, rest []string
	ended := false
	for j := i; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			rest, ended = append(rest, args[j+1:]...), true
			break
		}
		if !isOption(a) {
			rest = append(rest, a)
			continue
		}
		if a == "-h" || a == "--help" || a == "-help" {
			// Help, wherever it is asked: cli would take the first
			// argument for a help topic.
			return append(append([]string(nil), args[:i]...), a)
		}
		if j == len(args)-1 && takesValue(flags, a) {
			// Its value forgotten ("report FILE -o"): cli says so when
			// the option comes last; before "--" it took "--" for the
			// value and wrote the report into a folder named "--".
			return append(append(append([]string(nil), args[:i]...), opts...), a)
		}
		w := optionWidth(flags, a, j, args)
		opts = append(opts, args[j:j+w]...)
		j += w - 1
	}
	if len(opts) == 0 && !ended {
		return args
	}
	out := make([]string, 0, len(args)+1)
	out = append(out, args[:i]...)
	out = append(out, opts...)
	// "--" keeps an argument that starts with "-" (a file after the
	// original "--") from being read as an option, and a "--" after the
	// first file from being taken for a file.
	return append(append(out, "--"), rest...)
}

// completionFlag is what the shell's completion script adds to the words
// typed (urfave/cli's EnableBashCompletion).
const completionFlag = "--generate-bash-completion"

// isOption reports whether a is an option rather than an argument: "-"
// alone is standard input, "--" the end of the options.
func isOption(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--"
}

// optionWidth is 2 when the option at args[i] takes its value from the
// next argument, else 1.
func optionWidth(flags []cli.Flag, a string, i int, args []string) int {
	if i+1 < len(args) && takesValue(flags, a) {
		return 2
	}
	return 1
}

// takesValue reports whether the option a is one of flags that takes a
// value, and a does not hold it (--format=json does).
func takesValue(flags []cli.Flag, a string) bool {
	name := strings.TrimLeft(a, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			v, ok := f.(cli.DocGenerationFlag)
			return ok && v.TakesValue()
		}
	}
	return false
}
