package headless

import (
	"dcimon/collect"
	ns "dcimon/namespace"
)

// noter is a recorded past that says things of itself (pcp.Archives: compressed files and what
// a seek costs, index entries and overlaps passed over; issue 39).
type noter interface{ Notes() []string }

// noteArchives puts the archives' notes in the events (the monitor's events pane shows them),
// timed at the archives' start.
func noteArchives(s *collect.Sampler, past collect.History) {
	n, ok := past.(noter)
	if !ok || past == nil {
		return
	}
	first, _ := past.Span()
	for _, text := range n.Notes() {
		s.Events().Add(ns.Event{Time: first, Kind: ns.EvArchiveNote, Path: "archive", Text: text})
	}
}

// archiveSection is describe's section of the archives' notes, when they have any: that an
// archive is compressed and what a seek in it costs, and what was passed over in it.
func archiveSection(past collect.History) (ns.Section, bool) {
	n, ok := past.(noter)
	if !ok || past == nil {
		return ns.Section{}, false
	}
	var f []ns.Field
	for _, text := range n.Notes() {
		f = append(f, ns.Field{Key: "archive", Value: text})
	}
	return ns.Section{Title: "Archive", Fields: f}, len(f) > 0
}
