// Command fleetarchives writes the archives of a fleet of hosts with dcimon's own archive writer
// (archivetest.WriteFleet): the data of scripts/series-bench.sh, issue 34's budget of 500 hosts ×
// 16 disks, 5 minutes at 10 s. It prints the archives' base names, one a line.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"dcimon/internal/archivetest"
)

func main() {
	hosts := flag.Int("hosts", 500, "hosts, an archive each")
	disks := flag.Int("disks", 16, "disks a host")
	samples := flag.Int("samples", 31, "samples a host")
	step := flag.Duration("step", 10*time.Second, "between samples")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fleetarchives [-hosts N] [-disks N] [-samples N] [-step D] DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(flag.Arg(0), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bases, err := archivetest.WriteFleet(flag.Arg(0), archivetest.Fleet{Hosts: *hosts, Disks: *disks, Samples: *samples, Step: *step})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, b := range bases {
		fmt.Println(b)
	}
}
