package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	ns "dcimon/namespace"
	"dcimon/views"
)

// listLine is one line of `dcimon list`, and one object of its JSON form.
type listLine struct {
	Path        string `json:"path"` // SPMI path; contexts end with "/"
	Kind        string `json:"kind"` // "context" or "statistic"
	Description string `json:"description"`
	DataType    string `json:"data_type,omitempty"`  // statistics: "Long" or "Float" (SPMI-OUT-2)
	ValueType   string `json:"value_type,omitempty"` // statistics: "Counter" or "Quantity"
	Class       string `json:"class,omitempty"`      // DCI class id
	Instance    string `json:"instance,omitempty"`   // DCI instance id
	Datum       string `json:"datum,omitempty"`      // DCI datum id
	ASN         string `json:"asn,omitempty"`        // relative ASN.1 id
	depth       int
	contInst    bool // a statistic of a non-first instance of a continuously instantiated parent
}

// dataTypeWord is list's data type: Long or Float (SPMI-OUT-2), Text for a text datum.
func dataTypeWord(d *ns.Datum) string {
	if d.IsText() {
		return "Text"
	}
	return d.SiType.Word()
}

// lister gathers the lines of a listing: whether implementation datums are listed, and the
// classes read on demand (Proc), whose empty contexts say how to have them read.
type lister struct {
	all    bool
	demand map[uint32]bool
	out    []listLine
}

// listing walks the tree under root in order, contexts before their statistics and
// subcontexts (SPMI-OUT-1, SPMI-HIER-6).
//
// Implementation datums (Datum.Aux) are listed only with all, or when root names one.
func listing(reg *ns.Registry, root ns.Ref, all bool) []listLine {
	if root.Datum != nil {
		return datumListing(root)
	}
	ls := lister{all: all, demand: onDemandClasses(reg)}
	reg.Read(func() { ls.walk(root.Ctx, 0, false) })
	return ls.out
}

// datumListing is the listing of the one statistic root names, implementation datum or not.
func datumListing(root ns.Ref) []listLine {
	ls := lister{all: true}
	ls.addStats(root.Ctx, 0, false)
	var only []listLine
	for _, l := range ls.out {
		if l.Path == root.Path() {
			only = append(only, l)
		}
	}
	return only
}

// onDemandClasses are the top-level classes read on demand (Proc): they have no instance unless
// the listing asked for them.
func onDemandClasses(reg *ns.Registry) map[uint32]bool {
	demand := map[uint32]bool{}
	for _, c := range reg.Classes() {
		if c.OnDemand {
			demand[c.ID[0]] = true
		}
	}
	return demand
}

// walk lists context c (depth below the root), its statistics and its subcontexts. skip marks
// c as a non-first instance of a continuously instantiated parent: SPMI-OUT-2 lists only the
// first instance's statistics in the traversal format.
func (ls *lister) walk(c *ns.Context, depth int, skip bool) {
	if c.Kind != ns.CtxTop {
		ls.out = append(ls.out, ls.contextLine(c, depth))
	}
	ls.addStats(c, depth, skip)
	first := true
	for _, k := range c.Children() {
		kskip := k.Kind == ns.CtxInstance && c.InstFreq() == ns.SiContInst && !first
		if k.Kind == ns.CtxInstance {
			first = false
		}
		ls.walk(k, depth+1, kskip)
	}
}

// contextLine is a context's line: its path ending in "/", its class and instance, and for an
// empty class read on demand how to have it read.
func (ls *lister) contextLine(c *ns.Context, depth int) listLine {
	l := listLine{Path: c.Path() + "/", Kind: "context", Description: c.Desc, ASN: c.ASNPath(), depth: depth}
	if c.Class != nil && len(c.Class.ID) == 1 && ls.demand[c.Class.ID[0]] && len(c.Children()) == 0 {
		l.Description += " (read on demand: dcimon list " + c.Name + ")"
	}
	if c.Class != nil {
		l.Class = c.Class.ID.String()
	}
	if c.Inst != nil {
		l.Instance = c.Inst.ID().String()
	}
	return l
}

// addStats lists context c's statistics, those with an id, implementation datums only with all.
func (ls *lister) addStats(c *ns.Context, depth int, skip bool) {
	if c.Stats == nil {
		return
	}
	inst := ""
	if c.StatsInst != nil {
		inst = c.StatsInst.ID().String()
	}
	for i := range c.Stats.Datums {
		d := &c.Stats.Datums[i]
		if d.ID == ns.InvalidDatumID || (d.Aux && !ls.all) {
			continue
		}
		ref := ns.Ref{Ctx: c, Datum: d}
		ls.out = append(ls.out, listLine{Path: ref.Path(), Kind: "statistic", Description: d.Desc, DataType: dataTypeWord(d),
			ValueType: d.ValType.Word(), Class: c.Stats.ID.String(), Instance: inst, Datum: fmt.Sprintf("%d", uint32(d.ID)),
			ASN: ref.ASN(), depth: depth, contInst: skip})
	}
}

// writeList prints the xmpeek-style listing (SPMI-OUT-1): `/<host>/path`, contexts ending in
// "/", descriptions aligned in one column at least 40 wide (AMB-47). With types, the traversal
// format of SPMI-OUT-2: descriptions at column 30 (top-level contexts), 35 (nested contexts) or
// 40 (statistics), a type line under each statistic, and only the first instance's statistics
// under a continuously instantiated parent.
func writeList(w io.Writer, lines []listLine, host string, types, ids, asJSON bool) error {
	switch {
	case asJSON:
		return writeListJSON(w, lines, host, ids)
	case types:
		return writeTraversal(w, lines, ids)
	}
	col := 40
	for _, l := range lines {
		if n := views.Width(hostPrefix(host)+l.Path) + 2; n > col {
			col = n
		}
	}
	var b strings.Builder
	for _, l := range lines {
		writeCol(&b, hostPrefix(host)+l.Path, col, safe(l.Description))
		if ids {
			b.WriteString(idsText(l))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeListJSON prints the listing as one JSON object a line, paths with the host, the ids only
// when asked.
func writeListJSON(w io.Writer, lines []listLine, host string, ids bool) error {
	enc := json.NewEncoder(w)
	for _, l := range lines {
		if !ids {
			l.Class, l.Instance, l.Datum, l.ASN = "", "", "", ""
		}
		l.Path = hostPrefix(host) + l.Path
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// writeTraversal prints SPMI-OUT-2's traversal format: each description at its kind's column,
// a type line under each statistic, none of a non-first continuous instance's statistics.
func writeTraversal(w io.Writer, lines []listLine, ids bool) error {
	var b strings.Builder
	for _, l := range lines {
		if l.contInst {
			continue
		}
		writeCol(&b, l.Path, traversalColumn(l), safe(l.Description))
		if ids {
			b.WriteString(idsText(l))
		}
		b.WriteByte('\n')
		if l.Kind == "statistic" {
			dt := "Data Type(" + l.DataType + ")"
			fmt.Fprintf(&b, "        %-18sValue Type(%s)\n", dt, l.ValueType)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// traversalColumn is where the traversal format starts a line's description: 40 for a
// statistic, 30 for a top-level context, 35 for a nested one. Nested is where the context is
// in the name space, not how deep below the PATH asked for: CPU/cpu0/ is nested whether or not
// the listing starts at CPU.
func traversalColumn(l listLine) int {
	switch {
	case l.Kind != "context":
		return 40
	case strings.Contains(strings.TrimSuffix(l.Path, "/"), "/"):
		return 35
	}
	return 30
}

func writeCol(b *strings.Builder, s string, col int, rest string) {
	b.WriteString(s)
	n := col - views.Width(s) // cells, not bytes: a name may hold any character (issue 21)
	if n < 1 {
		n = 1
	}
	b.WriteString(strings.Repeat(" ", n))
	b.WriteString(rest)
}

func idsText(l listLine) string {
	var parts []string
	if l.Class != "" {
		parts = append(parts, "class "+l.Class)
	}
	if l.Instance != "" {
		parts = append(parts, "instance "+l.Instance)
	}
	if l.Datum != "" {
		parts = append(parts, "datum "+l.Datum)
	}
	asn := l.ASN
	if asn == "" {
		asn = "-"
	}
	parts = append(parts, "asn "+asn)
	return "  [" + strings.Join(parts, " ") + "]"
}

// ListOptions are what `dcimon list` is asked.
type ListOptions struct {
	Common
	Path       string // the context to list below; "" for everything
	Types, IDs bool   // add each statistic's types; add the DCI and ASN.1 ids
}

// List prints the name space under Path (or everything).
func List(ctx context.Context, o ListOptions, e Env, w io.Writer) (err error) {
	s, as, snap, _, err := firstReadingOf(ctx, o.Common, e, o.Path)
	if err != nil {
		return err
	}
	defer func() { err = damaged(as, err) }() // what was read is printed; then the damage is said
	reg := s.Registry()
	root := ns.Ref{Ctx: reg.Top()}
	if o.Path != "" {
		if root, err = reg.Lookup(nil, hostPath(o.Common, reg, o.Path)); err != nil {
			return pathError(reg, o.Path, "context or statistic", err)
		}
	}
	host := o.Host
	if host == "" && !o.Fleet {
		host = hostName(reg, snap)
	}
	return writeList(w, listing(reg, root, o.All), safe(host), o.Types, o.IDs, o.JSON)
}

// hostName is the name listings show for the host: the name space's (Registry.HostName), else
// "localhost"; a "/" would read as a path separator in the listing's first line, so it is "_".
func hostName(reg *ns.Registry, snap *ns.Snapshot) string {
	name := reg.HostName(snap)
	if name == "" {
		return "localhost"
	}
	return strings.ReplaceAll(name, "/", "_")
}

// hostPrefix is `/<host>/`, or `/` for a source of several hosts, whose paths start with the
// host's own context (`/web1/Disk/sda`).
func hostPrefix(host string) string {
	if host == "" {
		return "/"
	}
	return "/" + host + "/"
}
