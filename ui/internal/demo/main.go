// Command demo runs the monitor on the deterministic fixture source, for the end-to-end smoke
// tests and the screenshots while the real binary cannot start on a synthetic source. It is not
// part of dcimon.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"dcimon/ui"
	"dcimon/ui/internal/fixture"
)

func main() {
	cpus := flag.Int("cpus", 4, "processors")
	disks := flag.Int("disks", 6, "disks")
	nics := flag.String("nics", "eth0,eth1,lo", "interfaces, comma-separated")
	interval := flag.Duration("interval", time.Second, "refresh interval")
	theme := flag.String("theme", "", "theme")
	debug := flag.String("debug", "", "debug log file")
	flag.Parse()
	src, err := fixture.New(*cpus, *disks, strings.Split(*nics, ",")...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT)
	defer stop()
	if err := ui.Run(ctx, src, ui.Options{Interval: *interval, Theme: *theme, DebugFile: *debug, Host: "fixture"}); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
