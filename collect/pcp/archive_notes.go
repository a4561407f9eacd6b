package pcp

import "dcimon/pcparchive"

// Notes are what the archives say of themselves for people (pcparchive.Archive.Notes): which
// files are compressed and what a seek in them costs, and the warnings of what was passed over
// and why (index entries that cannot be right, archives of a folder that overlap; issue 39
// items 2 to 4). Of several archives, each note begins with its host as the paths name it.
func (as *Archives) Notes() []string { return as.each((*pcparchive.Archive).Notes) }

// Warnings are the notes that say something was passed over, and why.
func (as *Archives) Warnings() []string { return as.each((*pcparchive.Archive).Warnings) }

// each is what of says of every archive, in order; of several archives, each line begins with
// its host as the paths name it.
func (as *Archives) each(of func(*pcparchive.Archive) []string) []string {
	var out []string
	for i, x := range as.xs {
		for _, n := range of(x.a) {
			if len(as.xs) > 1 {
				n = as.names[i] + ": " + n
			}
			out = append(out, n)
		}
	}
	return out
}
