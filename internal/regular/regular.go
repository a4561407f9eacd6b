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
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(st.Mode))}
	}
	return os.NewFile(uintptr(fd), path), nil
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
