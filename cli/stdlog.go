package cli

import (
	"io"
	"log"
)

// Go's standard logger is not dcimon's voice: net/http writes to it what a peer did that it did
// not expect ("Unsolicited response received on idle HTTP channel", which pmproxy 6.0.3 provokes
// by answering some failed requests twice), before or between dcimon's own words on standard
// error. dcimon says what failed itself (a host's or pmproxy's error, with its reason), so the
// standard logger is discarded (issue 40 item 7); nothing of dcimon's writes to it.
func init() { log.SetOutput(io.Discard) }
