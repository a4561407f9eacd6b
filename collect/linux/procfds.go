package linux

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The descriptors the Proc class keeps (issue 41 item 9). On a live procfs a process's files
// read at every scan (stat, statm, schedstat, io) are kept open and read again with one pread
// each, which halves what a scan costs (issue 32 item 15); but a descriptor per file and process
// grows with the processes (365 for 73, 100,000 for 20,000) and, under `ulimit -n 128`, used up
// the limit so that every other read failed. So the kept descriptors are a cache of bounded size:
// at most a quarter of the descriptor limit and at most 512 (fdBudget), given to the processes
// read most (those seen at two scans or more, in the order they are met: the long-lived ones;
// a short-lived process never takes one), and the files of every other process are opened and
// closed at each reading. status, read only when the process ran, is never kept. When an open
// fails for want of descriptors (EMFILE, ENFILE: dcimon's other files, or another program's),
// the cache gives its descriptors back and shrinks to half, and the open is tried again once; a
// file that still cannot be opened is that process's error, said with the file, and every other
// process is read.

// maxKeptFDs bounds the kept descriptors whatever the limit. 512 (256 until issue 38 item 5)
// keep every per-scan file of a host of about 150 processes (a kernel thread's stat, a user
// process's stat, statm and schedstat): with 256, the opens and closes of the files left out
// were a sixth of the overview's processor time (perf, 146 processes). Each kept descriptor
// holds about 4.5 KB of kernel memory (its file and seq_file buffer): 2.3 MB at most.
const maxKeptFDs = 512

// fdBudget is how many descriptors the cache may keep under the process's descriptor limit.
func fdBudget() int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return budgetOf(lim.Cur)
}

// budgetOf is the cache's size under a descriptor limit of n: a quarter, at most maxKeptFDs.
func budgetOf(n uint64) int {
	return int(min(n/4, maxKeptFDs))
}

// outOfFDs reports whether err says the process (or the system) has no descriptor left.
func outOfFDs(err error) bool { return errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE) }

// openZ is open(2) on a pathZ, without blocking (a named pipe in a tree never hangs the reader).
func openZ(z pathZ) (int, error) {
	atCWD := unix.AT_FDCWD // a variable: the constant -100 does not convert to uintptr
	fd, _, errno := unix.Syscall6(unix.SYS_OPENAT, uintptr(atCWD), uintptr(unsafe.Pointer(&z[0])),
		uintptr(unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// open opens path for a reading; out of descriptors, it sheds the cache and tries once more.
func (p *procProvider) open(path pathZ) (int, error) {
	fd, err := p.try(path)
	if err != nil && outOfFDs(err) && p.shed() {
		fd, err = p.try(path)
	}
	return fd, err
}

// try is one open of path, asking the test's openHook first.
func (p *procProvider) try(path pathZ) (int, error) {
	if p.openHook != nil {
		if err := p.openHook(path.String()); err != nil {
			return -1, err
		}
	}
	return openZ(path)
}

// shed closes every kept descriptor and halves the cache's size; it reports whether it freed any.
func (p *procProvider) shed() bool {
	if p.keptFDs == 0 {
		return false
	}
	p.budget = p.keptFDs / 2
	for _, e := range p.procs {
		p.closeFDs(e)
	}
	return true
}

// readInto reads the whole of path into p.fbuf with as few system calls as the kernel allows:
// open, read, close. The bytes are valid until the next call.
func (p *procProvider) readInto(path pathZ, limit int) ([]byte, error) {
	fd, err := p.open(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	if cap(p.fbuf) == 0 {
		p.fbuf = make([]byte, 0, 4096)
	}
	b := p.fbuf[:0]
	for {
		if len(b) == cap(b) {
			if len(b) >= limit {
				break
			}
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			p.fbuf = b[:0]
			return nil, err
		}
		if n == 0 {
			break
		}
		room := cap(b) - len(b)
		b = b[:len(b)+n]
		if n < room {
			// A short read is the end: procfs writes these small files whole on the first
			// read, so asking again for the EOF would only cost a system call per file.
			break
		}
	}
	p.fbuf = b
	return b, nil
}

// readKept reads one of a process's files into p.fbuf: through its kept descriptor on a live
// procfs, opened the first time when the process has been seen before and the cache has room;
// else as readInto does. The bytes are valid until the next call.
func (p *procProvider) readKept(e *procEntry, which int, path pathZ, limit int) ([]byte, error) {
	if e.fds[which] < 0 && (!p.keep || e.scans < 2 || p.keptFDs >= p.budget) {
		return p.readInto(path, limit)
	}
	if e.fds[which] < 0 {
		fd, err := p.open(path)
		if err != nil {
			return nil, err
		}
		e.fds[which] = fd
		p.keptFDs++
	}
	if cap(p.fbuf) < limit {
		p.fbuf = make([]byte, 0, max(limit, 4096))
	}
	b := p.fbuf[:cap(p.fbuf)]
	for {
		n, err := unix.Pread(e.fds[which], b, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		p.fbuf = b[:0]
		return b[:n], nil
	}
}

// noFDs is an entry with no kept descriptor.
var noFDs = [4]int{-1, -1, -1, -1}

// closeFD closes one of an entry's kept descriptors, if it is open.
func (p *procProvider) closeFD(e *procEntry, which int) {
	if e.fds[which] >= 0 {
		unix.Close(e.fds[which])
		p.keptFDs--
		e.fds[which] = -1
	}
}

// closeFDs closes an entry's kept descriptors.
func (p *procProvider) closeFDs(e *procEntry) {
	for i, fd := range e.fds {
		if fd >= 0 {
			unix.Close(fd)
			p.keptFDs--
		}
		e.fds[i] = -1
	}
}
