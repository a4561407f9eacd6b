package pmcd

import (
	"context"
	"fmt"
	"math/bits"
	"sync"

	"dcimon/pcpwire"
)

// batchBytes bounds each request a batch is cut into: under pmcd's 64 KiB limit for a client's
// PDU, with libpcp's margin (pmLookupName cuts at 63 KiB).
const batchBytes = 63 << 10

// LookupNames finds the pmid of each name, in order; a name pmcd does not know has
// pcpwire.PMIDNull. Names are asked for in as few PDUs as pmcd's request limit allows. ids is
// reused when it has room.
func (c *Conn) LookupNames(ctx context.Context, names []string, ids []uint32) ([]uint32, error) {
	const op = "lookup names"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return ids, err
	}
	defer c.end(stop)
	ids = ids[:0]
	for start := 0; start < len(names); {
		end, size := start, pcpwire.NameListLen(nil)
		for end < len(names) && (end == start || size+4+len(names[end])+3 <= batchBytes) {
			size += 4 + (len(names[end])+3)&^3
			end++
		}
		if size > pcpwire.MaxRequest {
			return ids, &Error{Endpoint: c.endpoint, Op: op, Err: fmt.Errorf("a name of %d bytes: more than pmcd takes in a request", len(names[start]))}
		}
		batch := names[start:end]
		c.wbuf = pcpwire.AppendNameList(c.wbuf[:0], ctxNum, batch, nil)
		body, err := c.call(ctx, op, pcpwire.TypePMNSIDs)
		switch {
		case err == nil:
			if _, c.ids, err = pcpwire.DecodeIDList(body, len(batch), c.ids); err != nil {
				return ids, c.fail(op, err, ctx)
			}
			ids = append(ids, c.ids...)
		case isCode(err, pcpwire.ErrName):
			// pmcd answers so when it knows none of the batch.
			for range batch {
				ids = append(ids, pcpwire.PMIDNull)
			}
		default:
			return ids, err
		}
		start = end
	}
	return ids, nil
}

// Child is one child of a node of the name space.
type Child struct {
	Name string // its last component
	Leaf bool   // a metric, not a node
}

// Children lists the children of the node name ("" for the root), with which are metrics.
func (c *Conn) Children(ctx context.Context, name string) ([]Child, error) {
	const op = "children"
	names, status, err := c.nameList(ctx, op, op+" of "+quote(name), pcpwire.TypePMNSChild, name, 1)
	if err != nil {
		return nil, err
	}
	out := make([]Child, len(names))
	for i, n := range names {
		out[i] = Child{Name: n, Leaf: status[i] == pcpwire.PMNSLeaf}
	}
	return out, nil
}

// Traverse lists the full names of every metric at or below name ("" for all of them).
func (c *Conn) Traverse(ctx context.Context, name string) ([]string, error) {
	const op = "traverse"
	names, _, err := c.nameList(ctx, op, op+" "+quote(name), pcpwire.TypePMNSTraverse, name, 0)
	return names, err
}

// nameList asks pmcd for the names a name request of type t finds from name (with each one's
// status when subtype is 1, which pmcd must then send), as operation op, said as what in errors.
func (c *Conn) nameList(ctx context.Context, op, what string, t pcpwire.Type, name string, subtype int32) ([]string, []int32, error) {
	stop, err := c.begin(ctx, op)
	if err != nil {
		return nil, nil, err
	}
	defer c.end(stop)
	if err := c.fitsRequest(op, 20+len(name)); err != nil {
		return nil, nil, err
	}
	c.wbuf = pcpwire.AppendNameReq(c.wbuf[:0], t, ctxNum, name, subtype)
	body, err := c.call(ctx, what, pcpwire.TypePMNSNames)
	if err != nil {
		return nil, nil, err
	}
	names, status, err := pcpwire.DecodeNameList(body)
	if err != nil {
		return nil, nil, c.fail(op, err, ctx)
	}
	if subtype == 1 && len(names) > 0 && status == nil { // failed while the call is still ours
		return nil, nil, c.fail(op, &pcpwire.ProtocolError{PDU: pcpwire.TypePMNSNames, Msg: "children without their status"}, ctx)
	}
	return names, status, nil
}

// Descs reads the descriptor of each pmid, in order, into dst (reused): in batches of
// PDU_DESC_IDS where pmcd offers them (pmcd 6 does), else one PDU_DESC_REQ each, sent together.
// A pmid pmcd does not know has a descriptor whose PMID is pcpwire.PMIDNull.
func (c *Conn) Descs(ctx context.Context, pmids []uint32, dst []pcpwire.Desc) ([]pcpwire.Desc, error) {
	const op = "descriptors"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return dst, err
	}
	defer c.end(stop)
	dst = dst[:0]
	if c.greeting.Features&pcpwire.FeatureDescs == 0 {
		return c.descsOneByOne(ctx, op, pmids, dst)
	}
	const per = (batchBytes - pcpwire.HeaderLen - 8) / 4
	var got []pcpwire.Desc
	for start := 0; start < len(pmids); start += per {
		batch := pmids[start:min(start+per, len(pmids))]
		c.wbuf = pcpwire.AppendIDList(c.wbuf[:0], pcpwire.TypeDescIDs, ctxNum, -1, batch)
		body, err := c.call(ctx, op, pcpwire.TypeDescs)
		if err != nil {
			return dst, err
		}
		if got, err = pcpwire.DecodeDescs(body, len(batch), got); err != nil {
			return dst, c.fail(op, err, ctx)
		}
		for i, d := range got {
			if d.PMID != batch[i] && d.PMID != pcpwire.PMIDNull {
				return dst, c.fail(op, &pcpwire.ProtocolError{PDU: pcpwire.TypeDescs,
					Msg: fmt.Sprintf("descriptor %d is of %s, not %s", i, pcpwire.PMIDString(d.PMID), pcpwire.PMIDString(batch[i]))}, ctx)
			}
		}
		dst = append(dst, got...)
	}
	return dst, nil
}

// descsOneByOne asks for descriptors one PDU_DESC_REQ each, a group of them written at once and
// then their answers read, for a pmcd without PDU_DESC_IDS.
func (c *Conn) descsOneByOne(ctx context.Context, op string, pmids []uint32, dst []pcpwire.Desc) ([]pcpwire.Desc, error) {
	const group = 256 // answers of 32 bytes: far below what the sockets buffer
	for start := 0; start < len(pmids); start += group {
		batch := pmids[start:min(start+group, len(pmids))]
		c.wbuf = c.wbuf[:0]
		for _, id := range batch {
			c.wbuf = pcpwire.AppendDescReq(c.wbuf, ctxNum, id)
		}
		if err := c.send(); err != nil {
			return dst, c.fail(op, err, ctx)
		}
		for _, id := range batch {
			body, err := c.receive(pcpwire.TypeDesc, nil)
			var d pcpwire.Desc
			switch {
			case err == nil:
				if d, err = pcpwire.DecodeDesc(body); err != nil {
					return dst, c.fail(op, err, ctx)
				}
				if d.PMID != id {
					return dst, c.fail(op, &pcpwire.ProtocolError{PDU: pcpwire.TypeDesc,
						Msg: fmt.Sprintf("the descriptor of %s, not %s", pcpwire.PMIDString(d.PMID), pcpwire.PMIDString(id))}, ctx)
				}
			case isCode(err, 0):
				d = pcpwire.Desc{PMID: pcpwire.PMIDNull} // pmcd's error for this one
			default:
				return dst, c.fail(op, err, ctx)
			}
			dst = append(dst, d)
		}
	}
	return dst, nil
}

// Desc reads one metric's descriptor; pcpwire.ErrPMID when pmcd does not know it.
func (c *Conn) Desc(ctx context.Context, pmid uint32) (pcpwire.Desc, error) {
	const op = "descriptor"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return pcpwire.Desc{}, err
	}
	defer c.end(stop)
	c.wbuf = pcpwire.AppendDescReq(c.wbuf[:0], ctxNum, pmid)
	body, err := c.call(ctx, op+" of "+pcpwire.PMIDString(pmid), pcpwire.TypeDesc)
	if err != nil {
		return pcpwire.Desc{}, err
	}
	d, err := pcpwire.DecodeDesc(body)
	if err == nil && d.PMID != pmid {
		err = &pcpwire.ProtocolError{PDU: pcpwire.TypeDesc, Msg: fmt.Sprintf("the descriptor of %s, not %s", pcpwire.PMIDString(d.PMID), pcpwire.PMIDString(pmid))}
	}
	if err != nil {
		return pcpwire.Desc{}, c.fail(op, err, ctx)
	}
	return d, nil
}

// InDom lists the instances of an instance domain.
func (c *Conn) InDom(ctx context.Context, indom uint32) ([]pcpwire.Instance, error) {
	const op = "instance domain"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return nil, err
	}
	defer c.end(stop)
	c.wbuf = pcpwire.AppendInstanceReq(c.wbuf[:0], ctxNum, indom, pcpwire.InNull, "")
	body, err := c.call(ctx, op+" "+pcpwire.InDomString(indom), pcpwire.TypeInstance)
	if err != nil {
		return nil, err
	}
	got, insts, err := pcpwire.DecodeInstance(body)
	if err == nil && got != indom {
		err = &pcpwire.ProtocolError{PDU: pcpwire.TypeInstance, Msg: fmt.Sprintf("the instances of %s, not %s", pcpwire.InDomString(got), pcpwire.InDomString(indom))}
	}
	if err != nil {
		return nil, c.fail(op, err, ctx)
	}
	return insts, nil
}

// Text reads a help text: kind is pcpwire.TextOneLine or TextHelp, with TextPMID (ident a
// pmid) or TextInDom (ident an instance domain). pcpwire.ErrText when there is none. As
// libpcp's pmLookupText does, the whole help of something that has none (or an empty one) is
// its one-line text.
func (c *Conn) Text(ctx context.Context, ident uint32, kind int32) (string, error) {
	const op = "help text"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return "", err
	}
	defer c.end(stop)
	text, err := c.text(ctx, op, ident, kind)
	if kind&pcpwire.TextHelp != 0 && (text == "" && err == nil || isCode(err, 0)) {
		return c.text(ctx, op, ident, kind&^pcpwire.TextHelp|pcpwire.TextOneLine)
	}
	return text, err
}

func (c *Conn) text(ctx context.Context, op string, ident uint32, kind int32) (string, error) {
	c.wbuf = pcpwire.AppendTextReq(c.wbuf[:0], ctxNum, ident, kind)
	body, err := c.call(ctx, op, pcpwire.TypeText)
	if err != nil {
		return "", err
	}
	got, text, err := pcpwire.DecodeText(body)
	// pmcd 6.0.3 sends the identifier back in its own byte order (seen from x86-64; libpcp
	// does not look at it): either order is the one asked for.
	if err == nil && got != ident && bits.ReverseBytes32(got) != ident {
		err = &pcpwire.ProtocolError{PDU: pcpwire.TypeText, Msg: fmt.Sprintf("the text of 0x%x, not 0x%x", got, ident)}
	}
	if err != nil {
		return "", c.fail(op, err, ctx)
	}
	return text, nil
}

// Texts reads the help text of kind (as Text) of each ident, in order, the requests of a group
// written at once and their answers read after (one round trip a group, not one a text, for a
// pmcd far away). Something with no such text has "" (pmcd's error for it is no failure); the
// whole help of something that has none is not replaced by its one-line text here.
func (c *Conn) Texts(ctx context.Context, idents []uint32, kind int32) ([]string, error) {
	const op = "help texts"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return nil, err
	}
	defer c.end(stop)
	out := make([]string, 0, len(idents))
	const group = 64 // answers of a few KB at most each: within what the sockets buffer
	for start := 0; start < len(idents); start += group {
		batch := idents[start:min(start+group, len(idents))]
		c.wbuf = c.wbuf[:0]
		for _, id := range batch {
			c.wbuf = pcpwire.AppendTextReq(c.wbuf, ctxNum, id, kind)
		}
		if err := c.send(); err != nil {
			return out, c.fail(op, err, ctx)
		}
		for _, id := range batch {
			body, err := c.receive(pcpwire.TypeText, nil)
			if err != nil {
				if isCode(err, 0) {
					out = append(out, "") // none for this one: the next answer follows
					continue
				}
				return out, c.fail(op, err, ctx)
			}
			got, text, err := pcpwire.DecodeText(body)
			if err == nil && got != id && bits.ReverseBytes32(got) != id { // see text
				err = &pcpwire.ProtocolError{PDU: pcpwire.TypeText, Msg: fmt.Sprintf("the text of 0x%x, not 0x%x", got, id)}
			}
			if err != nil {
				return out, c.fail(op, err, ctx)
			}
			out = append(out, text)
		}
	}
	return out, nil
}

// Labels reads the label sets of kind (pcpwire.LabelContext, LabelDomain, LabelInDom,
// LabelCluster, LabelItem or LabelInstances) for ident (nothing for the context; a domain
// number, a pmid, or an instance domain).
func (c *Conn) Labels(ctx context.Context, kind int32, ident uint32) ([]pcpwire.LabelSet, error) {
	const op = "labels"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return nil, err
	}
	defer c.end(stop)
	if kind&pcpwire.LabelContext != 0 {
		ident = pcpwire.PMIDNull
	}
	c.wbuf = pcpwire.AppendLabelReq(c.wbuf[:0], ctxNum, ident, kind)
	body, err := c.call(ctx, op, pcpwire.TypeLabel)
	if err != nil {
		return nil, err
	}
	gotIdent, gotKind, sets, err := pcpwire.DecodeLabels(body)
	if err == nil && (gotIdent != ident || gotKind != kind) {
		err = &pcpwire.ProtocolError{PDU: pcpwire.TypeLabel, Msg: fmt.Sprintf("labels of kind %d for 0x%x, not of kind %d for 0x%x", gotKind, gotIdent, kind, ident)}
	}
	if err != nil {
		return nil, c.fail(op, err, ctx)
	}
	return sets, nil
}

// SetProfile sets which instances later fetches return (PCPF-1). It is sent with the next
// fetch; until then, and by default, every instance is.
func (c *Conn) SetProfile(p pcpwire.Profile) {
	c.profile, c.profileSent = p, false
}

// Fetch reads the values of pmids into dst, reusing its slices (valid until the next fetch
// into dst). The result has one value set per pmid, in order (PCPF-11); a metric without
// values says why in its set (PCPF-9). changes are the state changes pmcd reported before the
// result (pcpwire.Change*, PCPF-13): agents added, restarted or dropped, names or labels
// changed; descriptors and names read before may then be out of date.
func (c *Conn) Fetch(ctx context.Context, pmids []uint32, dst *pcpwire.Result) (changes int32, err error) {
	return c.fetch(ctx, pmids, dst, nil)
}

// FetchFunc is Fetch with the result decoded, once pmcd's answer is in, into a buffer every
// connection shares, handed to use (with the changes) and then taken back with the answer's
// bytes (pcpwire.Reader.Release): nothing of it may be kept. A fleet's connections wait for
// their answers without a decoded result or an answer's buffer each (issue 38: 30 KB and 12 KB
// of a host's memory).
func (c *Conn) FetchFunc(ctx context.Context, pmids []uint32, use func(changes int32, res *pcpwire.Result)) (changes int32, err error) {
	return c.fetch(ctx, pmids, nil, use)
}

// results are the decoding buffers of FetchFunc.
var results = sync.Pool{New: func() any { return new(pcpwire.Result) }}

// fetch is Fetch into dst, or with dst nil FetchFunc handing its result to use.
func (c *Conn) fetch(ctx context.Context, pmids []uint32, dst *pcpwire.Result, use func(int32, *pcpwire.Result)) (changes int32, err error) {
	const op = "fetch"
	stop, err := c.begin(ctx, op)
	if err != nil {
		return 0, err
	}
	defer c.end(stop)
	if err := c.fitsRequest(op, pcpwire.FetchLen(len(pmids))); err != nil {
		return 0, err
	}
	c.wbuf = c.wbuf[:0]
	if !c.profileSent {
		c.wbuf = pcpwire.AppendProfile(c.wbuf, ctxNum, ctxNum, c.profile)
		if len(c.wbuf) > pcpwire.MaxRequest {
			return 0, &Error{Endpoint: c.endpoint, Op: op, Err: fmt.Errorf("a profile of %d bytes: pmcd takes at most %d", len(c.wbuf), pcpwire.MaxRequest)}
		}
	}
	highres := c.greeting.Features&pcpwire.FeatureHighRes != 0
	c.wbuf = pcpwire.AppendFetch(c.wbuf, ctxNum, ctxNum, highres, pmids)
	if err := c.send(); err != nil {
		return 0, c.fail(op, err, ctx)
	}
	withProfile := !c.profileSent
	c.profileSent = true
	want, st := pcpwire.TypeResult, pcpwire.StampPDU
	if highres {
		want, st = pcpwire.TypeHighResResult, pcpwire.StampHighRes
	}
	body, err := c.receive(want, &changes)
	if err != nil {
		e := c.fail(op, err, ctx)
		if withProfile && c.broken == nil {
			// pmcd answers a profile only to refuse it, and then answers the fetch too: an
			// error here may be either's, and where the conversation is cannot be known.
			c.broken = err
		}
		return changes, e
	}
	if dst == nil {
		dst = results.Get().(*pcpwire.Result)
		defer results.Put(dst)
	}
	if err := pcpwire.DecodeResult(body, st, dst); err != nil {
		return changes, c.fail(op, err, ctx)
	}
	if len(dst.Sets) != len(pmids) {
		return changes, c.fail(op, &pcpwire.ProtocolError{PDU: want, Msg: fmt.Sprintf("%d value sets for %d metrics", len(dst.Sets), len(pmids))}, ctx)
	}
	for i := range dst.Sets {
		if dst.Sets[i].PMID != pmids[i] {
			return changes, c.fail(op, &pcpwire.ProtocolError{PDU: want,
				Msg: fmt.Sprintf("value set %d is of %s, not %s", i, pcpwire.PMIDString(dst.Sets[i].PMID), pcpwire.PMIDString(pmids[i]))}, ctx)
		}
	}
	if use != nil {
		use(changes, dst)
		c.rd.Release() // nothing of the answer is kept: its buffer serves the other connections
	}
	return changes, nil
}

// fitsRequest refuses a request larger than pmcd takes, before anything is sent.
func (c *Conn) fitsRequest(op string, n int) error {
	if n > pcpwire.MaxRequest {
		return &Error{Endpoint: c.endpoint, Op: op, Err: fmt.Errorf("a request of %d bytes: pmcd takes at most %d; ask in parts", n, pcpwire.MaxRequest)}
	}
	return nil
}

// isCode says whether err is an error code pmcd sent: code itself, or any when code is 0.
func isCode(err error, code pcpwire.Code) bool {
	var e *Error
	if ee, ok := err.(*Error); ok {
		e = ee
	}
	inner := err
	if e != nil {
		inner = e.Err
	}
	got, ok := inner.(pcpwire.Code)
	return ok && (code == 0 || got == code)
}

func quote(name string) string {
	if name == "" {
		return "the root"
	}
	return name
}
