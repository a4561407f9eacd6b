package ui

import (
	"errors"
	"strings"
	"testing"

	"dcimon/namespace"
)

// Issue 40 item 5: a host whose proc PMDA denies access has no processes to rank, and its
// rankings say why, never "none to rank" or "measuring…" as if it had none.
func TestOverviewProcsSayWhyNone(t *testing.T) {
	m := &Model{snap: &namespace.Snapshot{Seq: 5}}
	denied := &namespace.ClassValues{Sampled: true, Err: errors.New("pcp:db: PM_ERR_PERMISSION: No permission to perform requested operation (proc.psinfo.utime on db:44321); …")}
	if got := m.procRankCount(denied, 0, 0); !strings.HasPrefix(got, " — pcp:db: PM_ERR_PERMISSION") {
		t.Errorf("a denied host: %q", got)
	}
	if got := m.procRankCount(&namespace.ClassValues{Sampled: true}, 0, 0); got != " — none to rank" {
		t.Errorf("a host with none: %q", got)
	}
	if got := m.procRankCount(&namespace.ClassValues{Sampled: true}, 3, 9); got != " — top 3 of 9" {
		t.Errorf("three of nine: %q", got)
	}
	if got := (&Model{snap: &namespace.Snapshot{Seq: 1}}).procRankCount(nil, 0, 0); got != " — measuring…" {
		t.Errorf("before a reading: %q", got)
	}
}
