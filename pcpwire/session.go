package pcpwire

// The PDUs that open a conversation with pmcd, carry errors and state changes, and ask for
// values: PDU_ERROR (and its extended form, pmcd's first PDU), PDU_CREDS, PDU_PROFILE and
// PDU_FETCH.

// ProtocolVersion is PDU_VERSION, the only protocol pmcd 6 speaks (PDU_VERSION2).
const ProtocolVersion = 2

// Features pmcd offers in its first PDU, and a client asks for in its PDU_CREDS (libpcp.h,
// PDU_FLAG_*).
const (
	FeatureSecure    = 1 << 0  // TLS may be asked for
	FeatureCompress  = 1 << 1  // compression may be asked for
	FeatureAuth      = 1 << 2  // SASL authentication may be asked for
	FeatureCredsReqd = 1 << 3  // the client must authenticate
	FeatureSecureAck = 1 << 4  // pmcd acknowledges a TLS request
	FeatureNoNSSInit = 1 << 5  // obsolete
	FeatureContainer = 1 << 6  // a container may be named
	FeatureCertReqd  = 1 << 7  // a remote client must present a TLS certificate
	FeatureBadLabel  = 1 << 8  // labels with encoding problems
	FeatureLabels    = 1 << 9  // PDU_LABEL_REQ is answered
	FeatureHighRes   = 1 << 10 // PDU_HIGHRES_FETCH is answered
	FeatureDescs     = 1 << 11 // PDU_DESC_IDS is answered
)

// Greeting is what pmcd's first PDU says: whether it takes the client (Status 0, else why
// not), which protocol it speaks, and which features it offers.
type Greeting struct {
	Status   Code
	Version  int
	Licensed int
	Features uint16
}

// AppendGreeting appends pmcd's first PDU (an extended PDU_ERROR): status, then the version and
// features word. For tests and anything that plays pmcd.
func AppendGreeting(b []byte, g Greeting) []byte {
	b, start := begin(b, TypeError, 0)
	b = i32(b, toV1(g.Status))
	b = u32(b, uint32(g.Version&0x7f)<<24|uint32(g.Licensed&0xff)<<16|uint32(g.Features))
	return finish(b, start)
}

// DecodeGreeting decodes pmcd's first PDU, an extended PDU_ERROR whose status travels as a PCP
// 1.x code (p_error.c) and whose second word packs, from the top, a zero bit, the protocol
// version (7 bits), a "licensed" byte and the features (16 bits).
func DecodeGreeting(body []byte) (Greeting, error) {
	if len(body) != 8 {
		return Greeting{}, protoErr(TypeError, 0, "pmcd's first PDU is %d bytes long, not %d", len(body)+HeaderLen, 8+HeaderLen)
	}
	r := reader{p: body}
	g := Greeting{Status: fromV1(r.i32())}
	w := r.u32()
	g.Version, g.Licensed, g.Features = int(w>>24&0x7f), int(w>>16&0xff), uint16(w)
	return g, nil
}

// AppendError appends a PDU_ERROR carrying code: an error, or (positive) pmcd's state changes
// before a fetch's result.
func AppendError(b []byte, from int32, code Code) []byte {
	b, start := begin(b, TypeError, from)
	return finish(i32(b, int32(code)), start)
}

// DecodeError decodes a PDU_ERROR's body: the code it carries (an extended one's second word
// is ignored, as libpcp does).
func DecodeError(body []byte) (Code, error) {
	if len(body) != 4 && len(body) != 8 {
		return 0, protoErr(TypeError, 0, "%d bytes long, not %d or %d", len(body)+HeaderLen, 4+HeaderLen, 8+HeaderLen)
	}
	return Code(int32(be.Uint32(body))), nil
}

// State changes pmcd reports in a positive PDU_ERROR before a fetch's result (pmapi.h,
// PMCD_*; PCPF-13).
const (
	ChangeAddAgent     = 1 << 0
	ChangeRestartAgent = 1 << 1
	ChangeDropAgent    = 1 << 2
	ChangeAgent        = ChangeAddAgent | ChangeRestartAgent | ChangeDropAgent
	ChangeLabels       = 1 << 3
	ChangeNames        = 1 << 4
	ChangeHostname     = 1 << 5
)

// credVersion is CVERSION, the one kind of credential: the client's protocol and features.
const credVersion = 1

// AppendCreds appends the client's PDU_CREDS: one credential saying it speaks
// ProtocolVersion and asking for features (none: no TLS, no authentication).
func AppendCreds(b []byte, from int32, features uint16) []byte {
	b, start := begin(b, TypeCreds, from)
	b = i32(b, 1)
	b = u32(b, credVersion<<24|ProtocolVersion<<16|uint32(features))
	return finish(b, start)
}

// Profile states (pmapi.h, PM_PROFILE_*).
const (
	ProfileInclude = 0 // include all, but those excluded
	ProfileExclude = 1 // exclude all, but those included
)

// Profile says which instances a fetch returns (pmProfile; PCPF-1): State for every instance
// domain not listed, and for each listed one its own state and the instances it excepts. The
// zero Profile includes everything.
type Profile struct {
	State  int32
	InDoms []InDomProfile
}

// InDomProfile is one instance domain's part of a profile.
type InDomProfile struct {
	InDom uint32
	State int32
	Insts []int32
}

// AppendProfile appends a PDU_PROFILE for context ctx. pmcd answers a fetch only after a
// profile for its context.
func AppendProfile(b []byte, from, ctx int32, p Profile) []byte {
	b, start := begin(b, TypeProfile, from)
	b = i32(b, ctx)
	b = i32(b, p.State)
	b = i32(b, int32(len(p.InDoms)))
	b = i32(b, 0) // padding
	for _, d := range p.InDoms {
		b = u32(b, d.InDom)
		b = i32(b, d.State)
		b = i32(b, int32(len(d.Insts)))
		b = i32(b, 0)
	}
	for _, d := range p.InDoms {
		for _, in := range d.Insts {
			b = i32(b, in)
		}
	}
	return finish(b, start)
}

// AppendFetch appends a PDU_FETCH (or PDU_HIGHRES_FETCH) of pmids for context ctx.
func AppendFetch(b []byte, from, ctx int32, highres bool, pmids []uint32) []byte {
	t := TypeFetch
	if highres {
		t = TypeHighResFetch
	}
	b, start := begin(b, t, from)
	b = i32(b, ctx)
	b = u32(b, 0) // a timestamp no longer used
	b = u32(b, 0)
	b = i32(b, int32(len(pmids)))
	for _, id := range pmids {
		b = u32(b, id)
	}
	return finish(b, start)
}

// FetchLen is the size of the PDU_FETCH of n pmids.
func FetchLen(n int) int { return HeaderLen + 16 + 4*n }
