package ui

import "testing"

// DCI-LBL-5 (issue 29 item 21): the go-to prompt takes a dotted ASN.1 id as it takes a path,
// from wherever the selection is (the id is resolved from Top once the path is not found below).
func TestGotoASNID(t *testing.T) {
	m := newModel(t, newFixture(t, 2, 1), 120, 40, 1)
	m = keys(t, m, ":CPU/cpu1{enter}")
	m = keys(t, m, ":1.1.4{enter}")
	if r := m.tree.Selected(); r.Datum == nil || r.Path() != "CPU/cpu0/idle" {
		t.Fatalf(":1.1.4 selected %q", r.Path())
	}
	m = pressSelects(t, m, ":2{enter}", "Disk")
}
