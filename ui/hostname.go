package ui

// findHost takes the host name from the name space when Options.Host is empty (Registry.HostName,
// the rule `list` uses too); it is looked up again only when the name space changes.
func (m *Model) findHost() {
	if m.opts.Host != "" || m.snap == nil {
		return
	}
	gen := m.reg.Generation()
	if gen == m.hostGen && m.host != "" {
		return
	}
	m.hostGen = gen
	if name := m.reg.HostName(m.snap); name != "" {
		m.host = safe(name)
	}
}

// hostTitle is the host named in the title: Options.Host, or the name space's, looked up again
// only when the name space changes (hostGen is its generation then).
type hostTitle struct {
	host    string
	hostGen uint64
}
