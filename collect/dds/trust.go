package dds

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Suppliers as root (issue 29, items 11-12): administrators run dcimon with sudo, and whoever can
// change a supplier program, or the directory it lies in, or any directory above either, gets
// code run as root. So dcimon does what sshd's StrictModes and cron do: it refuses a suppliers
// directory, or a program, when anything on the whole path to it (every directory from / down,
// the directories a symbolic link leads through, every link on the way, and the file itself) is
// writable by its group or by others, or owned by anyone but root or the user dcimon runs as. One exception, as for
// /tmp: a directory above the one that holds the supplier may be writable by others if it is
// owned by root or the user and has the sticky bit, since nobody else can then rename or remove
// what lies in it.

// ErrUntrusted is wrapped by the errors of a path others could change.
var ErrUntrusted = errors.New("others could change it")

// maxLinks bounds the symbolic links followed on one path, as the kernel's ELOOP does.
const maxLinks = 40

// trustOwner is the user whose files dcimon trusts besides root's: the effective user.
func trustOwner() uint32 { return uint32(os.Geteuid()) }

// checkTrusted walks path from / and says why it is not trusted, or nil. Symbolic links are
// followed, so a link is judged by its target and every directory on the way to it; and every
// link on the way is judged itself, as sudo and sshd's StrictModes do (issue 41 item 1): a link
// owned by anyone but root or the user is refused, since its owner chooses where it leads, and in
// a sticky directory such as /tmp anyone may make one. The error names the component, the
// reason, and the links followed to reach it.
func checkTrusted(path string, uid uint32) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if err := checkEntry("/", uid, true); err != nil {
		return err
	}
	rest := strings.Split(strings.TrimPrefix(filepath.Clean(abs), "/"), "/")
	cur, links := "/", 0
	var via []string // the links followed, "link → target", for the error
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		if c == "" || c == "." {
			continue
		}
		next := filepath.Join(cur, c) // cur holds no link, so ".." is its parent
		fi, err := os.Lstat(next)
		if err != nil {
			return onTheWay(err, via)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if links++; links > maxLinks {
				return fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
			}
			if err := checkOwner(next, fi, "a symbolic link ", uid); err != nil {
				return onTheWay(err, via)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return onTheWay(err, via)
			}
			via = append(via, next+" → "+target)
			if filepath.IsAbs(target) {
				cur = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		}
		if err := checkEntry(next, uid, len(rest) > 0); err != nil {
			return onTheWay(err, via)
		}
		cur = next
	}
	return nil
}

// onTheWay adds to err the links followed before it was met.
func onTheWay(err error, via []string) error {
	if len(via) == 0 {
		return err
	}
	return fmt.Errorf("%w (reached through the link %s)", err, strings.Join(via, ", then "))
}

// checkOwner refuses a file owned by anyone but root or uid; what says what it is ("" for
// a file or directory, "a symbolic link " for a link).
func checkOwner(p string, fi fs.FileInfo, what string, uid uint32) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner known", p)
	}
	if st.Uid != 0 && st.Uid != uid {
		return fmt.Errorf("%s is %sowned by uid %d, neither root nor uid %d that dcimon runs as: %w", p, what, st.Uid, uid, ErrUntrusted)
	}
	return nil
}

// checkEntry judges one file or directory on the way; above says it is a directory above the
// last one, where a sticky directory (/tmp) is accepted.
func checkEntry(p string, uid uint32, above bool) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if err := checkOwner(p, fi, "", uid); err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	if perm&0o022 == 0 || (above && fi.IsDir() && fi.Mode()&fs.ModeSticky != 0) {
		return nil
	}
	who := "its group"
	if perm&0o002 != 0 {
		who = "others"
	}
	return fmt.Errorf("%s is writable by %s (mode %04o): %w", p, who, uint32(perm)|stickyBit(fi), ErrUntrusted)
}

func stickyBit(fi fs.FileInfo) uint32 {
	if fi.Mode()&fs.ModeSticky != 0 {
		return 0o1000
	}
	return 0
}
