//go:build linux

package resident

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// DropStartPages zaps the executable's read-only private mappings (its code and read-only
// data) from the process's page tables, once start-up is over; the pages stay in the page cache
// and come back as they are next used. It reads /proc/self/smaps for the mappings and their
// resident sizes.
func DropStartPages() (Dropped, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return Dropped{}, err
	}
	maps, err := readOnlyMappings("/proc/self/smaps", exe)
	if err != nil {
		return Dropped{}, err
	}
	var d Dropped
	for _, m := range maps {
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, uintptr(m.start), uintptr(m.end-m.start), unix.MADV_DONTNEED); errno != 0 {
			return d, fmt.Errorf("madvise %x-%x: %w", m.start, m.end, errno)
		}
		d.Mapped += m.end - m.start
		d.Resident += m.rss
	}
	return d, nil
}

// mapping is one read-only private mapping of the executable and its resident bytes.
type mapping struct {
	start, end, rss uint64
}

// readOnlyMappings lists the mappings of file path exe in an smaps file that are private and
// neither writable nor shared ("r-xp", "r--p"): those that hold what the file says, unchanged.
func readOnlyMappings(smaps, exe string) ([]mapping, error) {
	f, err := os.Open(smaps)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mapping
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if m, perms, name, ok := header(line); ok {
			in = name == exe && (perms == "r-xp" || perms == "r--p")
			if in {
				out = append(out, m)
			}
			continue
		}
		if in && bytes.HasPrefix(line, []byte("Rss:")) {
			f := bytes.Fields(line[4:])
			if len(f) == 2 && string(f[1]) == "kB" {
				kb, err := strconv.ParseUint(string(f[0]), 10, 64)
				if err == nil {
					out[len(out)-1].rss = kb << 10
				}
			}
		}
	}
	return out, sc.Err()
}

// header parses an smaps mapping line: "START-END PERMS OFFSET DEV INODE [PATH]"; ok is false
// for the attribute lines under it ("Rss:    12 kB").
func header(line []byte) (m mapping, perms, name string, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 5 {
		return m, "", "", false
	}
	dash := bytes.IndexByte(f[0], '-')
	if dash < 0 {
		return m, "", "", false
	}
	start, err1 := strconv.ParseUint(string(f[0][:dash]), 16, 64)
	end, err2 := strconv.ParseUint(string(f[0][dash+1:]), 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return m, "", "", false
	}
	if len(f) >= 6 {
		// The path is the rest of the line after the inode: it may hold spaces.
		i := bytes.Index(line, f[5])
		name = string(line[i:])
	}
	return mapping{start: start, end: end}, string(f[1]), name, true
}
