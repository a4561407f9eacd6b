// Package regular opens files that must be regular files (procfs and sysfs files, a user's
// files) without ever blocking on one that is not: a named pipe put in place of /proc/stat, or a
// device named as a user's file, is refused at once with an error that says what it is.
package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// ErrNotRegular is the error for a path that is not a regular file (a FIFO, a socket, a device).
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading without blocking on it, and only if it is a regular file.
func Open(path string) (*os.File, error) {
	fd, st, err := openStat(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(st.Mode))}
	}
	// The file is handed to Go blocking, so that os.NewFile does not give it to Go's poller: a
	// regular file that polls (/proc/kmsg) would wait there for ever. Then the descriptor is made
	// non-blocking again, so a read of such a file with nothing to give fails with EAGAIN at once
	// instead (issue 41 item 2).
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	if err := unix.SetNonblock(fd, true); err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// openStat opens path with flags (and perm, where it creates it) and reads what it is; on an
// error the descriptor is closed and the error is an *fs.PathError saying which step failed.
func openStat(path string, flags int, perm uint32) (int, unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := unix.Open(path, flags, perm)
	if err != nil {
		return -1, st, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, st, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return fd, st, nil
}

// Kind names the type of a file mode for an error message.
func Kind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return "a named pipe"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFDIR:
		return "a directory"
	}
	return fmt.Sprintf("mode %#o", mode&unix.S_IFMT)
}

// OpenLog opens path for appending (created 0600 if missing) without ever blocking: a named
// pipe that nobody reads is an error ("no reader") at once, where a plain open would wait for a
// reader for ever. A regular file, a character device (/dev/null, a terminal) or a pipe with a
// reader is taken; the descriptor is then made blocking again, so no write is lost to EAGAIN.
func OpenLog(path string) (*os.File, error) {
	fd, st, err := openStat(path, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0o600)
	if errors.Is(err, unix.ENXIO) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("a named pipe with no reader")}
	}
	if err != nil {
		return nil, err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFCHR, unix.S_IFIFO:
	default:
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(st.Mode))}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
