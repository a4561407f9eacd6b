// Command dcimon is an interactive terminal monitor of the host's metrics, organised as a DCI name
// space of classes, instances and datums, with DCI4, PCP and SPMI views of every datum. Its
// command line is package cli.
package main

import "dcimon/cli"

func main() { cli.Main() }
