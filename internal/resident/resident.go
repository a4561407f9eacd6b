// Package resident gives back the pages of the program's own file that start-up touched and the
// running monitor does not use (issue 38 item 5).
//
// A Go binary's code and read-only data are mapped from its file. Start-up runs the
// initialisation of every package linked in, the command line's parsing and the first
// collection of every class; each page it touches is mapped together with its neighbours (the
// kernel maps up to 64 KiB around a fault), so after start nearly all of an 8 MB text and of the
// read-only data are in the process's resident set, though a monitor at its refresh runs a
// fraction of them. Zapping those mappings once start-up is over (madvise MADV_DONTNEED on the
// file's read-only, private mappings) leaves them in the page cache, shared and clean: the pages
// the refresh runs come back at their next use, a minor fault each, and the rest stop counting.
// Writable mappings (the package variables) are never touched: dropping them would lose their
// values.
package resident

// Dropped is what DropStartPages gave back: the bytes of the mappings it zapped and how many of
// them were resident just before.
type Dropped struct {
	Mapped, Resident uint64
}
