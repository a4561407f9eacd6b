package namespace

import "testing"

// PCPD-1, PCPD-2, PCPD-3: the words of # PCP5 lines and pmproxy read back as the types and
// semantics Word writes, and nothing else.
func TestPCPWords(t *testing.T) {
	for _, ty := range []PMType{PMType32, PMTypeU32, PMType64, PMTypeU64, PMTypeFloat, PMTypeDouble, PMTypeString} {
		if got, ok := ParsePMType(ty.Word()); !ok || got != ty {
			t.Errorf("ParsePMType(%q) = %v %v, want %v", ty.Word(), got, ok, ty)
		}
	}
	for _, w := range []string{"", "int", "U32", "aggregate", "8"} {
		if _, ok := ParsePMType(w); ok {
			t.Errorf("ParsePMType(%q) accepted", w)
		}
	}
	for _, s := range []PMSem{PMSemCounter, PMSemInstant, PMSemDiscrete} {
		if got, ok := ParsePMSem(s.Word()); !ok || got != s {
			t.Errorf("ParsePMSem(%q) = %v %v", s.Word(), got, ok)
		}
	}
	if _, ok := ParsePMSem("gauge"); ok {
		t.Error("ParsePMSem took a Prometheus type")
	}
}

// PCPD-1 (issue 33): a pmid is domain.cluster.item with domain < 511 (511 is PCP's dynamic
// names'), cluster < 4096, item < 1024; an instance domain is domain.serial, serial < 2^22.
func TestPCPIdentifiers(t *testing.T) {
	for s, ok := range map[string]bool{"60.0.4": true, "510.4095.1023": true, "511.0.0": false, "5.5": false,
		"99.38026.6681.1.1": false, "1.4096.0": false, "1.0.1024": false, "a.b.c": false, "-1.0.0": false} {
		p, got := ParsePMID(s)
		if got != ok || (ok && (p.String() != s || !p.Valid())) {
			t.Errorf("ParsePMID(%q) = %v %v, want ok %v", s, p, got, ok)
		}
	}
	for s, ok := range map[string]bool{"60.1": true, "510.4194303": true, "60.4194304": false, "60.1.2": false, "PM_INDOM_NULL": true} {
		i, got := ParseInDom(s)
		if got != ok || (ok && (i.String() != s || !i.Valid())) {
			t.Errorf("ParseInDom(%q) = %v %v, want ok %v", s, i, got, ok)
		}
	}
	if (PMID{Domain: 511}).Valid() || (PMID{Cluster: 4096}).Valid() || !(PMID{510, 4095, 1023}).Valid() {
		t.Error("PMID.Valid's ranges")
	}
}
