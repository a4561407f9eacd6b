package linux

import (
	"bytes"
	"context"
	"fmt"
)

// netCol names a statistic column of /proc/net/dev, in the kernel's order.
type netCol int

// The statistic columns of /proc/net/dev. All are u64 counters (struct rtnl_link_stats64); a driver that
// keeps 32-bit counters on a 32-bit kernel still wraps them at 2^32, which the name space sees as a
// decrease of a 64-bit counter, a discontinuity, never a wrong rate.
const (
	netRxBytes      netCol = iota // bytes received
	netRxPackets                  // packets received
	netRxErrs                     // receive errors
	netRxDrop                     // received packets dropped
	netRxFIFO                     // receive FIFO overruns
	netRxFrame                    // framing errors
	netRxCompressed               // compressed packets received
	netRxMulticast                // multicast packets received
	netTxBytes                    // bytes sent
	netTxPackets                  // packets sent
	netTxErrs                     // transmit errors
	netTxDrop                     // sent packets dropped
	netTxFIFO                     // transmit FIFO overruns
	netTxColls                    // collisions
	netTxCarrier                  // carrier losses
	netTxCompressed               // compressed packets sent
	numNetCols
)

var netColNames = [numNetCols]string{
	"rx_bytes", "rx_packets", "rx_errs", "rx_drop", "rx_fifo", "rx_frame", "rx_compressed", "rx_multicast",
	"tx_bytes", "tx_packets", "tx_errs", "tx_drop", "tx_fifo", "tx_colls", "tx_carrier", "tx_compressed",
}

// String returns the column's name.
func (c netCol) String() string {
	if c < 0 || c >= numNetCols {
		return fmt.Sprintf("netCol(%d)", int(c))
	}
	return netColNames[c]
}

// netDevStat is one interface line of /proc/net/dev.
type netDevStat struct {
	name string             // the kernel's name, exact bytes (sanitizeName before display)
	v    [numNetCols]uint64 // indexed by netCol
}

// readNetDev reads <proc>/net/dev, reusing dst.
func readNetDev(ctx context.Context, fr *fileReader, dst []netDevStat) ([]netDevStat, error) {
	path, data, err := readProc(ctx, fr, "net", "net/dev")
	if err != nil {
		return dst[:0], err
	}
	return parseNetDev(path, data, dst)
}

// parseNetDev parses the content of /proc/net/dev (read from src) into dst[:0], reusing its storage and
// name strings. The two header lines are skipped; a bad line is reported with its number and skipped,
// and the good lines are returned.
func parseNetDev(src string, data []byte, dst []netDevStat) ([]netDevStat, error) {
	var errs lineErrs
	dst = parseRows("net", src, data, dst, isNetDevHeader, parseNetDevLine, &errs)
	return dst, errs.err()
}

// total is the bytes and packets received and sent: a sum that only goes backwards when the
// interface was made again.
func (d *netDevStat) total() uint64 {
	return d.v[netRxBytes] + d.v[netTxBytes] + d.v[netRxPackets] + d.v[netTxPackets]
}

// isNetDevHeader reports the two header lines of /proc/net/dev ("Inter-|   Receive ...").
func isNetDevHeader(n int, line []byte) bool { return n <= 2 && bytes.IndexByte(line, '|') >= 0 }

func parseNetDevLine(_ int, line []byte, d *netDevStat) error {
	// The kernel prints "%*s: " before the numbers. Interface names cannot contain ':' (dev_valid_name),
	// but may contain almost any other byte, so the name is everything before the last colon.
	colon := bytes.LastIndexByte(line, ':')
	if colon < 0 {
		return fmt.Errorf("%w: no \"name:\"", errTooFewFields)
	}
	name := trimSpace(line[:colon])
	if len(name) == 0 {
		return fmt.Errorf("%w: empty interface name", errTooFewFields)
	}
	if bytes.IndexByte(name, 0) >= 0 || bytes.IndexByte(name, '/') >= 0 {
		// The kernel's dev_valid_name refuses both: the line is corrupt (issue 21).
		return fmt.Errorf("%w: %q", errBadName, name)
	}
	var v [numNetCols]uint64
	n, _, err := parseUints(line[colon+1:], v[:])
	if err != nil {
		return err
	}
	if n < int(numNetCols) {
		return fmt.Errorf("%w: got %d statistics, want %d", errTooFewFields, n, numNetCols)
	}
	setString(&d.name, name)
	d.v = v
	return nil
}
