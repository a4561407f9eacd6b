package regular

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
)

// ErrTooLarge is the error for a file longer than its reader allows.
var ErrTooLarge = errors.New("file too large")

// ReadTimeout is how long ReadFile waits for a file at most: a file on a network file system
// that stops answering, or a FUSE file whose daemon hangs, ends in an error, not a hang.
const ReadTimeout = 5 * time.Second

// ReadFile reads the whole of path, which must be a regular file (a named pipe, a device or a
// directory is refused at once, never waited on) of at most limit bytes, within ReadTimeout and
// while ctx lasts. It is the one way dcimon reads a file a user names (--config, --hosts @FILE,
// DCIMON_PCP_PASSWORD_FILE, themes): every error is an *fs.PathError naming path, so the message
// says which file.
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	return readFile(ctx, path, limit, ReadTimeout, readBounded)
}

type readResult struct {
	data []byte
	err  error
}

// readFile is ReadFile with its timeout and its reader given, so a test can make a read hang.
func readFile(ctx context.Context, path string, limit int64, timeout time.Duration, read func(string, int64) ([]byte, error)) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan readResult, 1) // buffered: a read given up on still ends without a reader
	go func() {
		data, err := read(path, limit)
		done <- readResult{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		// The reading goroutine stays blocked in the kernel until the file answers; nothing
		// waits for it, and the process can end.
		err := ctx.Err()
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("not read within %v", timeout)
		}
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
}

// readBounded opens path without blocking, as a regular file only, and reads at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %s", ErrTooLarge, sizeText(limit))}
	}
	return data, nil
}

// sizeText is a limit in the units a user reads: 1 MiB, not 1048576.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
