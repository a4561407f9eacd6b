package linux

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
)

// hostID identifies the host. Both are static for the life of a supplier (DCI4 SV_STATIC): read them
// once per reset, not every tick.
type hostID struct {
	hostname  string // /proc/sys/kernel/hostname, exact bytes (sethostname accepts almost anything)
	osRelease string // /proc/sys/kernel/osrelease, the kernel release ("6.18.44-fc-v595")
}

// readHostID reads the host name and kernel release under <proc>/sys/kernel.
func readHostID(ctx context.Context, fr *fileReader) (hostID, error) {
	if err := ctx.Err(); err != nil {
		return hostID{}, err
	}
	dir := filepath.Join(rootsFrom(ctx).proc, "sys", "kernel")
	var id hostID
	var errs []error
	for _, f := range []struct {
		name string
		dst  *string
	}{{"hostname", &id.hostname}, {"osrelease", &id.osRelease}} {
		data, err := fr.read(filepath.Join(dir, f.name))
		if err != nil {
			errs = append(errs, fmt.Errorf("host: %w", err))
			continue
		}
		*f.dst = string(trimNewline(data))
	}
	return id, errors.Join(errs...)
}

// trimNewline removes the one trailing newline procfs and sysfs end a value with, keeping every other
// byte (a name may end in a space).
func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}
