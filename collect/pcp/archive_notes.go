package pcp

// Notes are what the archives say of themselves for people (pcparchive.Archive.Notes): which
// files are compressed and what a seek in them costs, and the warnings of what was passed over
// and why (index entries that cannot be right, archives of a folder that overlap; issue 39
// items 2 to 4). Of several archives, each note begins with its host as the paths name it.
func (as *Archives) Notes() []string {
	var out []string
	for i, x := range as.xs {
		for _, n := range x.a.Notes() {
			if len(as.xs) > 1 {
				n = as.names[i] + ": " + n
			}
			out = append(out, n)
		}
	}
	return out
}

// Warnings are the notes that say something was passed over, and why.
func (as *Archives) Warnings() []string {
	var out []string
	for i, x := range as.xs {
		for _, n := range x.a.Warnings() {
			if len(as.xs) > 1 {
				n = as.names[i] + ": " + n
			}
			out = append(out, n)
		}
	}
	return out
}
