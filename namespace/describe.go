package namespace

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is one attribute for people: a key and its value as text.
type Field struct {
	Key, Value string
}

// Section is a group of attributes under one standard ("DCI datum", "DCI4 description", ...).
type Section struct {
	Title  string
	Fields []Field
}

// Describe lists every attribute of what ref names — a context (class or instance) or a statistic
// (datum) — grouped by standard: SPMI, DCI, DCI4 and PCP, then documentation. The headless
// `describe` command and the TUI inspector both render these sections, so they always agree
// (DCI-NS-1, DCI-CLS-1, DCI-INST-1, DCI-DATA-1, DCI4-DESC-1, DCI4-SUP-3, PCPD-1, SPMI-HIER-4/5).
func (r *Registry) Describe(ref Ref) []Section {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if ref.Ctx == nil {
		return nil
	}
	if ref.Datum != nil {
		return r.describeDatum(ref)
	}
	return r.describeContext(ref.Ctx)
}

func (r *Registry) describeContext(c *Context) []Section {
	parent := "Top"
	if c.parent != nil && c.parent.Kind != CtxTop {
		parent = c.parent.Path()
	}
	if c.Kind == CtxTop {
		parent = "-"
	}
	deleted := "no"
	if c.deleted.Load() {
		deleted = "yes — " + SiDeleted.Line()
	}
	asn := c.ASNPath()
	if r.ASNPrefix != "" && asn != "" {
		asn += " (" + r.ASNPrefix + "." + asn + ")"
	}
	spmi := Section{Title: "SPMI context", Fields: []Field{
		{"path", orDash(c.Path())},
		{"name", c.Name},
		{"description", orDash(c.Desc)},
		{"parent", parent},
		{"inst_freq", c.InstFreq().String()},
		{"asn", orDash(asn)},
		{"subcontexts", strconv.Itoa(len(c.k().children))},
		{"statistics", strconv.Itoa(c.NumStats())},
		{"deleted", deleted},
	}}
	out := []Section{spmi}
	if c.Class != nil {
		out = append(out, describeClass(c.Class))
	}
	if c.Stats != nil && c.Stats != c.Class {
		s := describeClass(c.Stats)
		s.Title = "DCI class of the statistics"
		out = append(out, s)
	}
	for _, h := range c.k().hosted {
		s := describeClass(h)
		s.Title = "DCI class of the subcontexts"
		out = append(out, s)
	}
	if c.Inst != nil {
		out = append(out, describeInstance(c.Inst))
	}
	if sup := DescribedSupplier(Ref{Ctx: c}); sup != nil {
		out = append(out, describeSupplier(sup))
	}
	return out
}

// DescribedSupplier is the supplier whose record a description of ref shows (its "DCI4
// supplier" section): a statistic's class's, or a context's own class's, else its statistics'.
func DescribedSupplier(ref Ref) *Supplier {
	if ref.Ctx == nil {
		return nil
	}
	if ref.Datum != nil {
		if ref.Ctx.Stats != nil {
			return ref.Ctx.Stats.Supplier
		}
		return nil
	}
	if c := ref.Ctx.Class; c != nil && c.Supplier != nil {
		return c.Supplier
	}
	if c := ref.Ctx.Stats; c != nil {
		return c.Supplier
	}
	return nil
}

// SupplierReset is the reset value supplier sup reported at the reading of s: a supplier has
// one reset value (DCI4-SUP-8), carried by each of its classes s holds, so a context with no
// statistics of its own (Disk) shows the live value its instances' class was read with (issue
// 29 item 23). ok is false when s holds no class of sup.
func (s *Snapshot) SupplierReset(sup *Supplier) (reset [8]byte, ok bool) {
	if s == nil || sup == nil {
		return reset, false
	}
	for i := range s.Classes {
		cv := &s.Classes[i]
		if c := cv.Class; c != nil && c.Supplier != nil && (c.Supplier == sup || c.Supplier.Module == sup.Module && c.Supplier.Handle == sup.Handle) {
			return cv.Reset, true
		}
	}
	return reset, false
}

func describeClass(c *Class) Section {
	f := []Field{
		{"class id", c.ID.String()},
		{"label", labelText(c.Label)},
		{"flags", c.Flags.String()},
	}
	if why := c.Unavailable(); why != "" {
		f = append(f, Field{"state", why})
	}
	f = append(f, Field{"access", orNone(c.Access)}, Field{"method", methodText(c.Method)})
	if !c.Instantiated() {
		f = append(f, Field{"kind", "uninstantiated (a position in the tree: no instances, no data)"})
		for _, x := range c.Extensions { // a remote host's context: its labels
			f = append(f, Field{"extension " + x.Key, x.Value})
		}
		return Section{Title: "DCI class", Fields: f}
	}
	kind := "instantiated"
	if c.SingleInstance() {
		kind = "instantiated, single instance (value 0)"
	}
	f = append(f, Field{"kind", kind}, Field{"instantiability", c.InstFreq.String()})
	for i, l := range c.Levels {
		f = append(f, Field{fmt.Sprintf("instance level %d", i), fmt.Sprintf("%s, itype %s (%s), %d bytes", l.Type, l.Tag, l.Tag.Comment(), l.Size)})
	}
	f = append(f, Field{"instance id size", fmt.Sprintf("%d bytes", c.InstanceSize())})
	f = append(f, Field{"data block", fmt.Sprintf("%d bytes per instance", c.block)})
	// Every polled datum with its id, type, units, flags and label (DCI-CLS-1).
	f = append(f, Field{"datums", fmt.Sprintf("%d polled", len(c.Datums))})
	for i := range c.Datums {
		d := &c.Datums[i]
		f = append(f, Field{"datum " + d.ID.String(), fmt.Sprintf("%s: %s, %s, %s", d.DisplayLabel(), d.Type, d.Units, d.Flags)})
	}
	if len(c.Events) == 0 {
		f = append(f, Field{"events", "none"})
	}
	for _, e := range c.Events {
		data := "no event data"
		if len(e.Data) > 0 {
			var parts []string
			for _, d := range e.Data {
				parts = append(parts, fmt.Sprintf("%s %s %s@%d", labelText(d.Label), d.Type, d.Units, d.Offset))
			}
			data = strings.Join(parts, "; ")
		}
		f = append(f, Field{"event " + e.ID.String(), fmt.Sprintf("%s, header %s, %s", labelText(e.Label), e.Flags, data)})
	}
	for _, x := range c.Extensions {
		f = append(f, Field{"extension " + x.Key, x.Value})
	}
	for _, l := range c.Labels {
		f = append(f, Field{"label " + EscapeName(l.Key), strconv.Quote(l.Value)})
	}
	indom := c.ID.String()
	if c.SingleInstance() {
		indom = "PM_INDOM_NULL (single instance)"
	}
	f = append(f, Field{"PCP instance domain", indom})
	return Section{Title: "DCI class", Fields: f}
}

func describeInstance(in *Instance) Section {
	f := []Field{
		{"instance id", in.ID().String()},
		{"label", labelText(in.Label)},
		{"name", in.Name},
	}
	if in.OSName != in.Name {
		f = append(f, Field{"OS name", strconv.Quote(in.OSName)})
	}
	f = append(f, Field{"flags", in.Flags.String()}, Field{"access", orNone(in.Access)})
	if in.Desc != "" {
		f = append(f, Field{"description", in.Desc})
	}
	for _, a := range in.Attrs {
		f = append(f, Field(a))
	}
	for _, l := range in.Labels {
		f = append(f, Field{"label " + EscapeName(l.Key), strconv.Quote(l.Value)})
	}
	if !in.Added.IsZero() {
		f = append(f, Field{"added", in.Added.UTC().Format("2006-01-02 15:04:05 UTC")})
	}
	return Section{Title: "DCI instance", Fields: f}
}

// dataTypeText is the SPMI data type line: SPMI presents numbers only (SiLong, SiFloat), so a
// text datum says so rather than claim SiLong (issue 12).
func dataTypeText(d *Datum) string {
	if d.IsText() {
		return "text (SPMI presents numbers only: SiLong and SiFloat)"
	}
	return fmt.Sprintf("%s (Data Type(%s))", d.SiType, d.SiType.Word())
}

// LiveReset puts a supplier's reset value as last read into the "DCI4 supplier" section of a
// description, in place of the registered record's (DCI4-SUP-3, issue 12: never a reset of
// zeros while the supplier reports its boot time). The sections are changed in place.
func LiveReset(secs []Section, reset [8]byte) {
	for i := range secs {
		if secs[i].Title != "DCI4 supplier" {
			continue
		}
		for j := range secs[i].Fields {
			if secs[i].Fields[j].Key == "reset" {
				secs[i].Fields[j].Value = fmt.Sprintf("%x", reset[:])
			}
		}
	}
}

func describeSupplier(s *Supplier) Section {
	f := []Field{
		{"module", s.Module},
		{"title", s.Title},
		{"description", s.Description},
		{"i_version", VersionText(s.IVersion)},
		{"s_version", VersionText(s.SVersion)},
		{"type", s.Type.String()},
		{"features", fmt.Sprintf("0x%x", s.Features)},
		{"handle", strconv.FormatUint(uint64(s.Handle), 10)},
		{"max_stat", strconv.FormatUint(uint64(s.MaxStat), 10)},
		{"reset", s.ResetHex()},
	}
	for _, w := range s.Conformance() {
		f = append(f, Field{"warning", w})
	}
	return Section{Title: "DCI4 supplier", Fields: f}
}

func (r *Registry) describeDatum(ref Ref) []Section {
	c, d := ref.Ctx.Stats, ref.Datum
	fullASN := ref.ASN()
	switch {
	case fullASN == "":
		fullASN = "- (the parent has more subcontexts than SPMI's 16-bit numbers allow)"
	case r.ASNPrefix != "":
		fullASN += " (" + r.ASNPrefix + "." + fullASN + ")"
	}
	inst := "-"
	if ref.Ctx.StatsInst != nil {
		inst = fmt.Sprintf("%s (%s)", ref.Ctx.StatsInst.ID(), ref.Ctx.StatsInst.Name)
	}
	spmi := Section{Title: "SPMI statistic", Fields: []Field{
		{"path", ref.Path()},
		{"name", d.Name},
		{"description", orDash(d.Desc)},
		{"asn", fullASN},
		{"value type", d.ValType.String()},
		{"data type", dataTypeText(d)},
		{"min", strconv.FormatFloat(d.Min, 'g', -1, 64)},
		{"max", strconv.FormatFloat(d.Max, 'g', -1, 64) + scaleNote(d)},
	}}
	dci := []Field{
		{"class id", c.ID.String()},
		{"instance id", inst},
		{"datum id", d.ID.String()},
		{"type", fmt.Sprintf("%s (%s)", d.Type, d.Type.SizeText())},
		{"units", fmt.Sprintf("%s (%s)", d.Units, d.Units.Description())},
		{"flags", d.Flags.String()},
	}
	if d.IsDerived() {
		dci = append(dci, Field{"derived", r.derivationText(c, d)})
		dci = append(dci, Field{"operations", "none: computed by dcimon from a whole-class fetch (DCI-TYPE-5)"})
	} else {
		dci = append(dci, Field{"offset", strconv.FormatUint(uint64(d.Offset), 10)})
		if d.Flags&DatumQueryable != 0 {
			dci = append(dci, Field{"operations", "DCI_OP_GETDATA (read-only monitor)"})
		} else {
			dci = append(dci, Field{"operations", "not queryable"})
		}
	}
	dci = append(dci, Field{"label", labelText(d.Label)})
	if d.Units == UnitTicks {
		dci = append(dci, Field{"tick rate", fmt.Sprintf("%g Hz", d.TickHz)})
	}
	d4 := d.DCI4
	dci4 := Section{Title: "DCI4 description", Fields: []Field{
		{"type", d4.Type.String()},
		{"format", d4.FormatName()},
		{"presentation", d4.PresentationName()},
		{"size", fmt.Sprintf("%d bytes", d4.Size)},
		{"volatility", d4.Volatility.String()},
		{"name", d4.Name},
		{"name_tag", strconv.FormatUint(uint64(d4.NameTag), 10)},
		{"spare", strconv.FormatUint(uint64(d4.Spare), 10)},
	}}
	units, typ, sem := d.PCP.Units, d.PCP.Type, d.PCP.Sem
	if h := d.PCP.Host; h != nil { // the metric read, as its host describes it
		units, typ, sem = h.Units, h.Type, h.Sem
	}
	pcpUnits := fmt.Sprintf("%s (%s)", units, units.Dimension())
	if sem == PMSemCounter || (d.PCP.Host == nil && d.IsCounter()) {
		pcpUnits += fmt.Sprintf("; as a rate %s", units.Rate())
	}
	packed, _ := units.Pack()
	// The identifiers `dcimon metrics` exports the datum under (issue 39 item 8).
	id, in := r.pcpIDLocked(c, d.ID)
	pmid, indom := id.String(), in.String()
	if d.PCP.PMID != "" { // a remote host's own metric: its pmcd's numbers
		pmid = d.PCP.PMID + " (on its host; " + pmid + " in dcimon's name space)"
		if d.PCP.InDom != "" {
			indom = d.PCP.InDom + " (on its host)"
		}
	}
	pcpName := d.PCP.Name
	if i := strings.Index(pcpName, "<"); i >= 0 && ref.Ctx.StatsInst != nil {
		// A name with the instance in it (kernel.all.pressure.<resource>.some.total): this
		// instance's (kernel.all.pressure.io.some.total).
		if j := strings.Index(pcpName[i:], ">"); j > 0 {
			pcpName = pcpName[:i] + ref.Ctx.StatsInst.Name + pcpName[i+j+1:]
		}
	}
	if pcpName == "" {
		pcpName = "- (no PCP Linux PMDA metric is the same datum)"
	}
	pcp := Section{Title: "PCP descriptor", Fields: []Field{
		{"metric", pcpName},
		{"pmid", pmid},
		{"type", typ.String()},
		{"semantics", sem.String()},
		{"units", pcpUnits},
		{"pmUnits", fmt.Sprintf("0x%06x {dimSpace %d, dimTime %d, dimCount %d, scaleSpace %d, scaleTime %d, scaleCount %d}",
			packed, units.DimSpace, units.DimTime, units.DimCount, units.ScaleSpace, units.ScaleTime, units.ScaleCount)},
		{"instance domain", indom},
	}}
	if h := d.PCP.Host; h != nil && h.Units != d.PCP.Units {
		pcp.Fields = append(pcp.Fields, Field{"as dcimon reads it", fmt.Sprintf("%s (%s)", d.PCP.Units, d.PCP.Units.Dimension())})
	}
	out := []Section{spmi, {Title: "DCI datum", Fields: dci}, dci4, pcp}
	doc := Section{Title: "Documentation"}
	if d.Help != "" {
		doc.Fields = append(doc.Fields, Field{"help", d.Help})
	}
	if d.Source != "" {
		doc.Fields = append(doc.Fields, Field{"source", d.Source})
	}
	if len(doc.Fields) > 0 {
		out = append(out, doc)
	}
	if c.Supplier != nil {
		out = append(out, describeSupplier(c.Supplier))
	}
	return out
}

// derivationText shows a derived datum's relationship by argument names: "PERCENT(busy, idle)".
func (r *Registry) derivationText(c *Class, d *Datum) string {
	name := strings.TrimPrefix(d.Units.String(), "UMA_DERIVED_")
	var args []string
	for n := 0; n < d.Units.Args(); n++ {
		if j := d.args[n]; j >= 0 {
			args = append(args, c.Datums[j].DisplayLabel())
		}
	}
	return fmt.Sprintf("%s(%s) = %s", name, strings.Join(args, ", "), d.Units.Description())
}

// DerivationText is derivationText for callers outside the package.
func (r *Registry) DerivationText(c *Class, d *Datum) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.derivationText(c, d)
}

func scaleNote(d *Datum) string {
	if d.IsCounter() {
		return " (per second)"
	}
	return ""
}

func labelText(l Label) string {
	s := l.ASCII
	if s == "" {
		s = "(empty)"
	}
	if len(l.I18N) > 0 {
		s += fmt.Sprintf("; i18n: %d bytes", len(l.I18N))
	}
	return s
}

func methodText(m Method) string {
	if m.Type == MethodNone {
		return "none"
	}
	if m.Ops == 0 {
		return m.Type.String()
	}
	return fmt.Sprintf("%s, operations %s", m.Type, m.Ops)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
