// Command dcimon is an interactive terminal monitor of the host's metrics, organised as a DCI name
// space of classes, instances and datums, with DCI4, PCP and SPMI views of every datum.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=..."; "dev" otherwise.
var version = "dev"

const usage = `dcimon — a DCI metrics browser for the terminal

Usage:
  dcimon [flags]                 open the interactive monitor on this host
  dcimon --version               print the version and exit
  dcimon --help                  print this help and exit

dcimon reads the host's CPU, disk, network, host and memory counters and shows
them as DCI classes, instances and datums, with the DCI4, PCP and SPMI views of
every datum, rates computed from real elapsed time, and SPMI hotsets (top-N
busiest disks, interfaces and CPUs).

Exit status: 0 on success, 1 on a runtime failure, 2 on a usage error.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "--version", "-version", "-V":
			fmt.Fprintf(stdout, "dcimon %s\n", version)
			return 0
		case "--help", "-help", "-h", "help":
			fmt.Fprint(stdout, usage)
			return 0
		default:
			fmt.Fprintf(stderr, "dcimon: unknown argument %q\n\n%s", a, usage)
			return 2
		}
	}
	fmt.Fprintln(stderr, "dcimon: the interactive monitor is not built yet; see --help")
	return 1
}
