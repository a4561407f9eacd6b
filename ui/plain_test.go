package ui

import (
	"strings"
	"testing"

	"dcimon/namespace"
)

// jargon are the standards' names that the panes, the hotset form and the flashes must not show
// (issue 32 item 4): describe and the inspector keep them.
var jargon = []string{"SiHot", "SiBad", "SiNo", "SiInvalid", "DCI_", "SPMI-HOT", "except_type", "feed_type"}

func noJargon(t *testing.T, where, s string) {
	t.Helper()
	for _, j := range jargon {
		if strings.Contains(s, j) {
			t.Errorf("%s shows %q:\n%s", where, j, s)
		}
	}
}

// fsHotsetModel is the monitor on the synthetic host with the hotsets pane focused on the fullest
// file systems' peer set, whose threshold is 90% with exceptions.
func fsHotsetModel(t *testing.T) Model {
	t.Helper()
	m := newModel(t, newSynthSampler(t, "synthetic:disks=2,nics=1,cpus=2,seed=5"), 200, 60, 3)
	m = keys(t, m, "3")
	for i, r := range m.hot.rows {
		if r.item == -1 && r.entry.Path() == "FS" {
			m.hot.moveTo(i)
			m.syncSelection()
			m.touch()
			return m
		}
	}
	t.Fatal("no FS peer set")
	return m
}

// issue 32 item 4: the hotsets pane and the form say "always", "events" and what was refused in
// plain words; no SPMI name, DCI status or rule id.
func TestHotsetsInPlainWords(t *testing.T) {
	m := fsHotsetModel(t)
	view := strip(m.hot.View())
	if !strings.Contains(view, "listed: always") || !strings.Contains(view, "events every 5 min, severity 1") {
		t.Errorf("the FS peer set's settings are not in words:\n%s", view)
	}
	noJargon(t, "the hotsets pane", view)
	// The form, and its refusal of alerts every minute (SPMI-HOT-14 in the name space).
	m = keys(t, m, "e")
	if m.modal != modalForm {
		t.Fatal("e did not open the form")
	}
	formView := func() string { return strip(strings.Join(m.form.View(m.st, m.formW(), ""), "\n")) }
	noJargon(t, "the hotset form", formView())
	for i := range m.form.fields {
		if m.form.fields[i].label == "frequency" {
			m.form.fields[i].input = newLineInput(m.inKeys, "1", 12)
		}
	}
	m = keys(t, m, "{enter}")
	if m.modal != modalForm || !strings.Contains(m.form.err, "at least 5 minutes") {
		t.Fatalf("alerts every minute were not refused: %q", m.form.err)
	}
	noJargon(t, "the form's refusal", m.form.err)
	noJargon(t, "the form with the refusal", formView())
}

// issue 32 item 5: the inspector shows a peer set's threshold as the pane shows it, 90.0% and not
// 0.9, with the standards' record beside it.
func TestInspectorThresholdInDisplayUnits(t *testing.T) {
	m := fsHotsetModel(t)
	var thr string
	for _, f := range m.insp.peerSet().Fields {
		if f.Key == "threshold" {
			thr = f.Value
		}
	}
	if !strings.HasPrefix(thr, "> 90.0%") {
		t.Fatalf("inspector threshold %q, want > 90.0%% as the pane shows it", thr)
	}
	if !strings.Contains(strip(m.hot.View()), "threshold 90.0%") {
		t.Errorf("the pane does not show 90.0%%:\n%s", strip(m.hot.View()))
	}
	// The inspector keeps the standards' names.
	insp := strip(m.insp.View())
	if !strings.Contains(insp, namespace.SiHotAlways.String()) {
		t.Errorf("the inspector lost the SPMI feed type:\n%s", insp)
	}
}
