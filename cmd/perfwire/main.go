// Command perfwire decodes performance-telemetry wire formats from files:
// DLT KPI logs, PCP PDU streams, label sets, MMV files and LTT traces, and
// talks to a live pmcd.
//
// Usage:
//
//	perfwire [--plugin FILE.wasm] <command> [flags] [arguments]
//
// With --plugin, pdu, kpi, labels, events, mmv, dlt and archive --json
// decode inside that wasip1 module (wasm/ABI.md) through wazero and print
// what the native run prints.
//
// Exit status: 0 on success, 1 when an input cannot be decoded (the
// message names the file and the byte offset), 2 on usage errors.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// command is one subcommand: its name, a one-line summary for the usage
// text, and the function that runs it with the remaining arguments.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout io.Writer) error
}

// commands lists every subcommand; each is implemented in the file named
// after it.
var commands = []command{
	{"archive", "read PCP archives as pmdumplog does, or as JSON lines", runArchive},
	{"dlt", "print every DLT message as dlt-convert -a does, filtered; or follow a daemon", runDLT},
	{"kpi", "decode dlt-kpi messages in DLT files", runKPI},
	{"pdu", "decode a raw stream of PCP PDUs as JSON lines", runPDU},
	{"pm", "query a live pmcd (names, descriptors, values)", runPM},
	{"labels", "parse, canonicalise and merge PCP label sets", runLabels},
	{"events", "decode PCP event record arrays as JSON lines", runEvents},
	{"mmv", "read MMV metric files (JSON, or mmvdump text)", runMMV},
	{"ltt", "read old LTT traces", runLTT},
	{"serve", "serve the browser viewer; relay a live dlt-daemon to it", runServe},
	{"export", "write archives and DLT files as Hive-partitioned Parquet", runExport},
	{"pmda", "run a PMDA written on package pmda; install or remove it in pmcd", runPMDA},
}

// usageError marks errors caused by how perfwire was called (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef builds a usageError.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// inputError ties a decode failure to the file it came from (exit 1).
type inputError struct {
	file string
	err  error
}

func (e *inputError) Error() string { return e.file + ": " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: perfwire [--plugin FILE.wasm] <command> [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n--plugin FILE.wasm runs the decode of pdu, kpi, labels, events, mmv, dlt and")
	fmt.Fprintln(w, "archive --json inside that wasip1 module (wasm/ABI.md) through wazero; the")
	fmt.Fprintln(w, "output is the native run's.")
	fmt.Fprintln(w, "\nRun 'perfwire <command> -h' for a command's flags.")
}

// run executes one invocation and returns the process exit status.
// --plugin FILE.wasm before the command runs the decoding commands (pdu,
// kpi, labels, events, mmv, dlt, archive) inside that wasip1 module (wasm/ABI.md) instead of natively.
// helpAsked reports whether args ask for a command's help: --help or
// -help before any "--", and -h too except for pm, whose -h names the
// host as pminfo's and pmval's does, and archive, whose -h asks for the
// help texts as pmdumplog's does.
func helpAsked(cmd string, args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--help" || a == "-help" || a == "-h" && cmd != "pm" && cmd != "archive":
			return true
		}
	}
	return false
}

// diag is where commands write diagnostics that are not their output
// (damage skipped, progress): the stderr of the current run.
var diag io.Writer = os.Stderr

func run(args []string, stdout, stderr io.Writer) int {
	diag = stderr
	defer func() { diag = os.Stderr }()
	if len(args) > 0 && (args[0] == "--plugin" || strings.HasPrefix(args[0], "--plugin=")) {
		file, ok := strings.CutPrefix(args[0], "--plugin=")
		args = args[1:]
		if !ok {
			if len(args) == 0 {
				fmt.Fprintln(stderr, "perfwire: --plugin needs a module file")
				return 2
			}
			file, args = args[0], args[1:]
		}
		p, err := loadPlugin(file)
		if err != nil {
			fmt.Fprintf(stderr, "perfwire: --plugin: %v\n", err)
			return 1
		}
		defer p.close()
		plugin = p
		defer func() { plugin = nil }()
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout)
		var ue *usageError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ue) && helpAsked(c.name, args[1:]):
			// Asked for help, the command printed its usage as an error:
			// help goes to stdout and is no failure.
			fmt.Fprintln(stdout, ue.msg)
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "perfwire %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "perfwire %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "perfwire: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
