package pcpwire

import (
	"bytes"
	"errors"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// PCP's constants as pmapi.h and libpcp.h define them: the wire carries their numbers, so a
// wrong one is a wrong protocol.
func TestConstantsArePCPs(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"PDU_ERROR", int64(TypeError), 0x7000},
		{"PDU_RESULT", int64(TypeResult), 0x7001},
		{"PDU_PROFILE", int64(TypeProfile), 0x7002},
		{"PDU_FETCH", int64(TypeFetch), 0x7003},
		{"PDU_DESC_REQ", int64(TypeDescReq), 0x7004},
		{"PDU_INSTANCE", int64(TypeInstance), 0x7007},
		{"PDU_TEXT", int64(TypeText), 0x7009},
		{"PDU_CREDS", int64(TypeCreds), 0x700c},
		{"PDU_PMNS_IDS", int64(TypePMNSIDs), 0x700d},
		{"PDU_PMNS_TRAVERSE", int64(TypePMNSTraverse), 0x7010},
		{"PDU_LABEL", int64(TypeLabel), 0x7013},
		{"PDU_HIGHRES_RESULT", int64(TypeHighResResult), 0x7015},
		{"PDU_DESCS", int64(TypeDescs), 0x7017},
		{"PM_ERR_NAME", int64(ErrName), -12357},
		{"PM_ERR_PMID", int64(ErrPMID), -12358},
		{"PM_ERR_IPC", int64(ErrIPC), -12366},
		{"PM_ERR_NOAGENT", int64(ErrNoAgent), -12386},
		{"PM_ERR_TOOBIG", int64(ErrTooBig), -12444},
		{"PM_ERR_NEEDCLIENTCERT", int64(ErrNeedCert), -12408},
		{"PDU_FLAG_CREDS_REQD", FeatureCredsReqd, 8},
		{"PDU_FLAG_CERT_REQD", FeatureCertReqd, 128},
		{"PDU_FLAG_HIGHRES", FeatureHighRes, 1024},
		{"PDU_FLAG_DESCS", FeatureDescs, 2048},
		{"PM_TYPE_U64", TypeU64, 3},
		{"PM_TYPE_STRING", TypeString, 6},
		{"PM_SEM_DISCRETE", SemDiscrete, 4},
		{"PMCD_NAMES_CHANGE", ChangeNames, 16},
		{"PM_LABEL_INSTANCES", LabelInstances, 32},
		{"PM_TEXT_INDOM", TextInDom, 8},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, PCP's is %d", c.name, c.got, c.want)
		}
	}
}

// PCPD-15: errors are PCP's codes with their text; an errno from the other host is named.
func TestCodeText(t *testing.T) {
	for _, c := range []struct {
		code Code
		want string
	}{
		{ErrName, "PM_ERR_NAME: Unknown metric name"},
		{ErrPMID, "PM_ERR_PMID: Unknown or illegal metric identifier"},
		{ErrNoAgent, "PM_ERR_NOAGENT: No PMCD agent for domain of request"},
		{ErrIPC, "PM_ERR_IPC: IPC protocol failure"},
		{-111, "ECONNREFUSED: connection refused"},
		{-12345 - 500, "code -12845: Unknown PCP error code"},
		{0, "no error"},
	} {
		if got := c.code.Error(); got != c.want {
			t.Errorf("%d: %q, want %q", c.code, got, c.want)
		}
	}
	var err error = &ProtocolError{PDU: TypeResult, Offset: 16, Msg: "x"}
	if !errors.Is(err, ErrIPC) || err.Error() != "RESULT PDU, byte 16: x" {
		t.Errorf("a protocol error: %v, is ErrIPC %v", err, errors.Is(err, ErrIPC))
	}
}

// pmcd's greeting carries its status as a PCP 1.x code (p_error.c's XLATE_ERR_1TO2) and packs
// version, "licensed" and features in its second word.
func TestGreeting(t *testing.T) {
	for _, g := range []Greeting{
		{Status: 0, Version: 2, Licensed: 1, Features: FeatureDescs | FeatureLabels | FeatureHighRes},
		{Status: ErrPermission, Version: 2, Licensed: 1},
		{Status: -111, Version: 2},
	} {
		b := AppendGreeting(nil, g)
		if len(b) != 20 {
			t.Fatalf("a greeting of %d bytes, not 20", len(b))
		}
		got, err := DecodeGreeting(b[HeaderLen:])
		if err != nil || got != g {
			t.Errorf("%+v came back as %+v, %v", g, got, err)
		}
	}
	// The bytes pmcd 6.0.3 sent here: status 0; version 2, licensed 1, features 0xe00.
	real := []byte{0, 0, 0, 20, 0, 0, 0x70, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0x0e, 0}
	g, err := DecodeGreeting(real[HeaderLen:])
	if err != nil || g.Version != 2 || g.Features != FeatureDescs|FeatureLabels|FeatureHighRes {
		t.Errorf("pmcd's greeting read as %+v, %v", g, err)
	}
	// A 1.x code: PM_ERR_PERMISSION is -1042 there.
	b := []byte{0xff, 0xff, 0xfb, 0xee, 2, 1, 0, 0}
	if g, _ := DecodeGreeting(b); g.Status != ErrPermission {
		t.Errorf("1.x code -1042 read as %v", g.Status)
	}
	if _, err := DecodeGreeting(b[:4]); !errors.Is(err, ErrIPC) {
		t.Errorf("a short greeting: %v", err)
	}
}

// PCPD-7: the pmUnits bit fields, in PCP's order; PCPD-8/9/10: the scales; PCPD-11: as
// pminfo -d writes them.
func TestUnits(t *testing.T) {
	for _, c := range []struct {
		f    [6]int
		want string
	}{
		{[6]int{1, -1, 0, 2, 3, 0}, "Mbyte / sec"},
		{[6]int{0, 1, -1, 0, 5, 6}, "hour / count x 10^6"},
		{[6]int{0, 1, 0, 0, 2, 0}, "millisec"},
		{[6]int{1, 0, 0, 1, 0, 0}, "Kbyte"},
		{[6]int{0, 0, 1, 0, 0, 0}, "count"},
		{[6]int{0, -1, 0, 0, 3, 0}, "/ sec"},
		{[6]int{0, 0, 0, 3, 5, 0}, "none"}, // a scale counts only with its dimension
		{[6]int{-8, 7, 0, 8, 0, -8}, ""},   // the extremes pack and unpack
	} {
		u, err := MakeUnits(c.f[0], c.f[1], c.f[2], c.f[3], c.f[4], c.f[5])
		if err != nil {
			t.Fatalf("%v: %v", c.f, err)
		}
		got := [6]int{u.DimSpace(), u.DimTime(), u.DimCount(), u.ScaleSpace(), u.ScaleTime(), u.ScaleCount()}
		if got != c.f {
			t.Errorf("%v came back as %v", c.f, got)
		}
		if s := u.String(); c.want != "" && s != c.want {
			t.Errorf("%v: %q, want %q", c.f, s, c.want)
		}
	}
	// kernel.all.cpu.user's units as pmcd 6.0.3 sent them: millisec.
	if u := Units(0x01002000); u.String() != "millisec" || u.DimTime() != 1 {
		t.Errorf("0x01002000 = %q", u)
	}
	for _, f := range [][6]int{{8, 0, 0, 0, 0, 0}, {0, -9, 0, 0, 0, 0}, {0, 0, 0, 9, 0, 0}, {0, 0, 0, 0, 6, 0}} {
		if _, err := MakeUnits(f[0], f[1], f[2], f[3], f[4], f[5]); !errors.Is(err, ErrUnit) {
			t.Errorf("%v taken: %v", f, err)
		}
	}
}

// sampleResult has every kind of value set: 32-bit values in the set, 64-bit, float, double and
// string values in blocks, a metric with no values and one with an error code.
func sampleResult() *Result {
	u64 := func(n uint64) []byte { return be.AppendUint64(nil, n) }
	return &Result{
		Time: time.Unix(1795221088, 671108000),
		Sets: []ValueSet{
			{PMID: 60<<22 | 32, ValFmt: ValInsitu, Values: []Value{{Inst: InNull, Insitu: true, Word: 8}}},
			{PMID: 60<<22 | 4, ValFmt: ValDPtr, Values: []Value{
				{Inst: 0, BlockType: TypeU64, Block: u64(1 << 40)}, {Inst: 1, BlockType: TypeU64, Block: u64(math.MaxUint64)}}},
			{PMID: 60<<22 | 2<<10, ValFmt: ValDPtr, Values: []Value{{Inst: 1, BlockType: TypeFloat, Block: be.AppendUint32(nil, math.Float32bits(0.62))}}},
			{PMID: 60<<22 | 7, ValFmt: ValDPtr, Values: []Value{{Inst: 3, BlockType: TypeDouble, Block: u64(math.Float64bits(-2.5))}}},
			{PMID: 60<<22 | 12<<10, ValFmt: ValDPtr, Values: []Value{{Inst: InNull, BlockType: TypeString, Block: []byte("6.18.44-fc-v782\x00")}}},
			{PMID: 60<<22 | 9},
			{PMID: 70 << 22, Err: ErrNoAgent},
		},
	}
}

func sameResult(t *testing.T, got, want *Result, highres bool) {
	t.Helper()
	wt := want.Time
	if !highres {
		wt = wt.Truncate(time.Microsecond)
	}
	if !got.Time.Equal(wt) || len(got.Sets) != len(want.Sets) {
		t.Fatalf("time %v, %d sets; want %v, %d", got.Time, len(got.Sets), wt, len(want.Sets))
	}
	for i, s := range got.Sets {
		w := want.Sets[i]
		if s.PMID != w.PMID || s.Err != w.Err || len(s.Values) != len(w.Values) || (len(w.Values) > 0 && s.ValFmt != w.ValFmt) {
			t.Errorf("set %d: %+v, want %+v", i, s, w)
			continue
		}
		for j, v := range s.Values {
			wv := w.Values[j]
			if v.Inst != wv.Inst || v.Insitu != wv.Insitu || v.Word != wv.Word && wv.Insitu || v.BlockType != wv.BlockType || !bytes.Equal(v.Block, wv.Block) {
				t.Errorf("set %d value %d: %+v, want %+v", i, j, v, wv)
			}
		}
	}
}

// PCPF-2, PCPF-4, PCPF-8, PCPF-9, PCPF-11: a result's shape survives encoding and decoding, in
// both PDUs (PCPF-3: nanoseconds in the high-resolution one).
func TestResultRoundTrip(t *testing.T) {
	want := sampleResult()
	for _, highres := range []bool{false, true} {
		b := AppendResult(nil, 0, highres, want)
		st, typ := StampPDU, TypeResult
		if highres {
			st, typ = StampHighRes, TypeHighResResult
		}
		r := NewReader(bytes.NewReader(b), 0)
		h, body, err := r.Next()
		if err != nil || h.Type != typ || h.Len != len(b) {
			t.Fatalf("framing: %+v %v", h, err)
		}
		var got Result
		if err := DecodeResult(body, st, &got); err != nil {
			t.Fatal(err)
		}
		sameResult(t, &got, want, highres)
	}
}

// PCPF-5: a value block's header holds its type (8 bits) and its length, header included (24
// bits); a 40-byte string is a block of 44 bytes of type 6, padded to a word.
func TestValueBlockHeader(t *testing.T) {
	s := strings.Repeat("x", 39) + "\x00"
	b := AppendResult(nil, 0, false, &Result{Sets: []ValueSet{{PMID: 1, ValFmt: ValDPtr, Values: []Value{{Inst: 0, BlockType: TypeString, Block: []byte(s)}}}}})
	// header 12, timestamp 8, count 4, set: pmid, numval, valfmt, inst, offset (20): block at 44.
	h := be.Uint32(b[44:])
	if h>>24 != TypeString || h&0xffffff != 44 || be.Uint32(b[40:]) != 44/4 || len(b) != 44+44 {
		t.Errorf("block header 0x%08x at word %d, PDU of %d bytes", h, be.Uint32(b[40:]), len(b))
	}
}

// PCPF-6: a value means what its descriptor's type says: 0xffffffff is 4294967295 as U32 and -1
// as 32.
func TestValueThroughType(t *testing.T) {
	v := Value{Insitu: true, Word: 0xffffffff}
	if n, _ := v.Uint64(TypeU32); n != 4294967295 {
		t.Errorf("U32: %d", n)
	}
	if x, _ := v.Float64(Type32); x != -1 {
		t.Errorf("32: %v", x)
	}
	blk := Value{Block: be.AppendUint32(nil, 0xfffffffe), BlockType: Type32}
	if x, _ := blk.Float64(Type32); x != -2 {
		t.Errorf("a 32-bit value in a block: %v", x)
	}
	f := Value{Insitu: true, Word: math.Float32bits(1.5)}
	if x, _ := f.Float64(TypeFloat); x != 1.5 {
		t.Errorf("float: %v", x)
	}
	if _, err := (Value{Block: []byte{1, 2}}).Uint64(TypeU64); !errors.Is(err, ErrValueType) {
		t.Errorf("a 2-byte U64: %v", err)
	}
	if _, err := (Value{Block: []byte("x")}).Float64(TypeString); !errors.Is(err, ErrValueType) {
		t.Errorf("a string as a number: %v", err)
	}
	if s := (Value{Block: []byte("abc\x00\x00")}).StringValue(); s != "abc" {
		t.Errorf("string %q", s)
	}
}

// A hostile result is an error that says where, never a panic or an allocation its counts
// alone ask for (house style 21).
func TestResultHostile(t *testing.T) {
	good := AppendResult(nil, 0, false, sampleResult())[HeaderLen:]
	put := func(off int, v uint32) []byte {
		b := bytes.Clone(good)
		be.PutUint32(b[off:], v)
		return b
	}
	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"microseconds past a second", put(4, 1e6), "microseconds"},
		{"a billion metrics", put(8, 1e9), "metrics, and room for"},
		{"a negative count", put(8, 0xffffffff), "metrics, and room for"},
		{"a billion values", put(16, 1e9), "says it has 1000000000 values"},
		{"value format 3", put(20, 3), "format 3"},
		{"a block outside the PDU", put(48, 1e6), "outside"},
		{"a block past the end", put(48, uint32(len(good)+HeaderLen)/4), "outside"},
		{"a block longer than what is left", func() []byte {
			b := bytes.Clone(good)
			at := int(be.Uint32(b[48:]))*4 - HeaderLen
			be.PutUint32(b[at:], TypeU64<<24|1000000)
			return b
		}(), "says it is 1000000 bytes"},
		{"a block of 2 bytes", func() []byte {
			b := bytes.Clone(good)
			at := int(be.Uint32(b[48:]))*4 - HeaderLen
			be.PutUint32(b[at:], TypeU64<<24|2)
			return b
		}(), "says it is 2 bytes"},
	} {
		var r Result
		err := DecodeResult(c.body, StampPDU, &r)
		if !errors.Is(err, ErrIPC) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "byte") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// Cut at every byte: an error, or (at a set's boundary, with the count made to fit) a result.
	for n := range len(good) {
		var r Result
		if err := DecodeResult(good[:n], StampPDU, &r); err == nil {
			t.Errorf("cut at %d of %d: no error", n, len(good))
		}
	}
}

// The fetch path allocates nothing once its result has grown to the answer's size.
func TestDecodeResultSteadyStateAllocatesNothing(t *testing.T) {
	body := hostResult(8, 16, 4)[HeaderLen:]
	var r Result
	if err := DecodeResult(body, StampHighRes, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = DecodeResult(body, StampHighRes, &r) }); n != 0 {
		t.Errorf("%v allocations a decode", n)
	}
}

// A PDU's length is checked before anything is allocated for it, and what is allocated grows
// only with the bytes that arrive (house style 21).
func TestReaderBounds(t *testing.T) {
	hdr := func(n int) []byte {
		b := be.AppendUint32(nil, uint32(n))
		b = be.AppendUint32(b, uint32(TypeResult))
		return be.AppendUint32(b, 0)
	}
	if _, _, err := NewReader(bytes.NewReader(hdr(8)), 0).Next(); !errors.Is(err, ErrIPC) || !strings.Contains(err.Error(), "less than its own header") {
		t.Errorf("a length of 8: %v", err)
	}
	if _, _, err := NewReader(bytes.NewReader(hdr(MaxPDU+1)), 0).Next(); !errors.Is(err, ErrTooBig) {
		t.Errorf("a length over 64 MiB: %v", err)
	}
	// A peer claims 60 MiB and sends 100 bytes, then closes: the reader says so, having taken
	// no more than a step of memory.
	r := NewReader(io.MultiReader(bytes.NewReader(hdr(60<<20)), bytes.NewReader(make([]byte, 100))), 0)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := r.Next()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "cut short after 112 of 62914560 bytes") {
		t.Errorf("a PDU cut short: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("%d bytes allocated for a PDU of 100 bytes that claimed 60 MiB", grew)
	}
	// A stream that ends between PDUs is io.EOF; inside a header, cut short.
	if _, _, err := NewReader(bytes.NewReader(nil), 0).Next(); err != io.EOF {
		t.Errorf("an empty stream: %v", err)
	}
	if _, _, err := NewReader(bytes.NewReader(hdr(20)[:5]), 0).Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a header cut short: %v", err)
	}
}

// The name space's PDUs, instance domains, texts, descriptors and labels survive encoding, and
// their hostile forms are errors.
func TestMetadataRoundTrip(t *testing.T) {
	body := func(b []byte) []byte { return b[HeaderLen:] }

	names := []string{"kernel.all.load", "hinv.ncpu", "", "x"}
	got, status, err := DecodeNameList(body(AppendNameList(nil, 0, names, []int32{0, 0, 1, 1})))
	if err != nil || strings.Join(got, ",") != strings.Join(names, ",") || len(status) != 4 || status[2] != PMNSNonLeaf {
		t.Errorf("names with status: %q %v %v", got, status, err)
	}
	if l := len(AppendNameList(nil, 0, names, nil)); l != NameListLen(names) {
		t.Errorf("NameListLen %d, encoded %d", NameListLen(names), l)
	}
	neg := body(AppendNameList(nil, 0, nil, nil))
	code := int32(ErrName)
	be.PutUint32(neg[8:], uint32(code))
	if _, _, err := DecodeNameList(neg); err != ErrName {
		t.Errorf("a negative count is pmcd's code: %v", err)
	}
	huge := body(AppendNameList(nil, 0, names, nil))
	be.PutUint32(huge[8:], 1e8)
	if _, _, err := DecodeNameList(huge); !errors.Is(err, ErrIPC) {
		t.Errorf("a hundred million names: %v", err)
	}

	ids := []uint32{1, PMIDNull, 3}
	sts, gotIDs, err := DecodeIDList(body(AppendIDList(nil, TypePMNSIDs, 0, 2, ids)), 3, nil)
	if err != nil || sts != 2 || len(gotIDs) != 3 || gotIDs[1] != PMIDNull {
		t.Errorf("ids %v %d %v", gotIDs, sts, err)
	}
	if _, _, err := DecodeIDList(body(AppendIDList(nil, TypePMNSIDs, 0, 2, ids)), 2, nil); !errors.Is(err, ErrIPC) {
		t.Errorf("three ids for two names: %v", err)
	}

	insts := []Instance{{1, "1 minute"}, {5, "5 minute"}, {15, "15 minute"}, {7, ""}}
	indom, gotInsts, err := DecodeInstance(body(AppendInstance(nil, 0, 60<<22|2, insts)))
	if err != nil || indom != 60<<22|2 || len(gotInsts) != 4 || gotInsts[2] != insts[2] {
		t.Errorf("instances %v %v", gotInsts, err)
	}
	long := body(AppendInstance(nil, 0, 1, insts))
	be.PutUint32(long[12:], 1000) // the first name's length
	if _, _, err := DecodeInstance(long); !errors.Is(err, ErrIPC) {
		t.Errorf("a name longer than the PDU: %v", err)
	}

	ident, text, err := DecodeText(body(AppendText(nil, 0, 42, "number of CPUs in the system")))
	if err != nil || ident != 42 || text != "number of CPUs in the system" {
		t.Errorf("text %d %q %v", ident, text, err)
	}

	u, _ := MakeUnits(0, 1, 0, 0, 2, 0)
	ds := []Desc{{PMID: 1, Type: TypeU64, InDom: 2, Sem: SemCounter, Units: u}, {PMID: PMIDNull}}
	gotDs, err := DecodeDescs(body(AppendDescs(nil, 0, ds)), 2, nil)
	if err != nil || len(gotDs) != 2 || gotDs[0] != ds[0] || gotDs[1].PMID != PMIDNull {
		t.Errorf("descs %+v %v", gotDs, err)
	}
	if d, err := DecodeDesc(body(AppendDesc(nil, 0, ds[0]))); err != nil || d != ds[0] {
		t.Errorf("desc %+v %v", d, err)
	}

	sets := []LabelSet{
		{Inst: InNull, JSON: `{"hostname":"vm","agent":"linux"}`, Labels: []Label{{Name: "hostname", Value: `"vm"`, Flags: LabelContext}, {Name: "agent", Value: `"linux"`}}},
		{Inst: 3, Err: ErrNoLabels},
	}
	id, kind, gotSets, err := DecodeLabels(body(AppendLabels(nil, 0, 60, LabelDomain, sets)))
	if err != nil || id != 60 || kind != LabelDomain || len(gotSets) != 2 || gotSets[0].Labels[1].Value != `"linux"` ||
		gotSets[0].Labels[0].Name != "hostname" || gotSets[1].Err != ErrNoLabels {
		t.Errorf("labels %+v %v", gotSets, err)
	}
	bad := body(AppendLabels(nil, 0, 60, LabelDomain, sets[:1]))
	be.PutUint32(bad[20:], 5000) // the JSON's offset
	if _, _, _, err := DecodeLabels(bad); !errors.Is(err, ErrIPC) {
		t.Errorf("JSON outside the PDU: %v", err)
	}
}

// The requests a client sends are laid out as libpcp lays them out (p_fetch.c, p_profile.c,
// p_creds.c, p_pmns.c): sizes and the words that matter.
func TestRequestLayouts(t *testing.T) {
	f := AppendFetch(nil, 0, 0, true, []uint32{7, 8})
	if len(f) != FetchLen(2) || len(f) != 36 || Type(be.Uint32(f[4:])) != TypeHighResFetch || be.Uint32(f[24:]) != 2 || be.Uint32(f[32:]) != 8 {
		t.Errorf("fetch % x", f)
	}
	c := AppendCreds(nil, 99, 0)
	if len(c) != 20 || be.Uint32(c[12:]) != 1 || be.Uint32(c[16:]) != 0x01020000 {
		t.Errorf("creds % x", c)
	}
	p := AppendProfile(nil, 0, 0, Profile{InDoms: []InDomProfile{{InDom: 5, State: ProfileExclude, Insts: []int32{1, 2}}}})
	if len(p) != 12+16+16+8 || be.Uint32(p[36:]) != 2 || be.Uint32(p[44:]) != 1 {
		t.Errorf("profile % x", p)
	}
	if r := AppendNameReq(nil, TypePMNSChild, 0, "", 1); len(r) != 20 {
		t.Errorf("the root's children: %d bytes, libpcp sends 20", len(r))
	}
	if r := AppendNameReq(nil, TypePMNSChild, 0, "kernel", 1); len(r) != 28 || be.Uint32(r[16:]) != 6 {
		t.Errorf("kernel's children % x", r)
	}
	if r := AppendInstanceReq(nil, 0, 5, InNull, ""); len(r) != 32 {
		t.Errorf("an instance request: %d bytes, libpcp sends 32", len(r))
	}
	if r := AppendLabelReq(nil, 0, 123, LabelContext); be.Uint32(r[12:]) != PMIDNull {
		t.Errorf("the context's labels ask for PM_ID_NULL: % x", r)
	}
}
