package schema

import (
	"testing"

	ns "dcimon/namespace"
)

// Issue 40 item 5: the proc PMDA's instance names read as the local Proc class names a process.
func TestProcPID(t *testing.T) {
	for in, want := range map[string]string{"000123 /usr/bin/foo -x": "123", "4194303 sh": "4194303", "1": "1", "abc def": "abc def", "": ""} {
		if got := ProcPID(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// Issue 40 item 5: of the proc PMDA's control groups of a process, the one the local Proc class
// shows (collect/linux's cgroupOf on /proc/PID/cgroup): the unified path, else the first v1
// controller's below the root, cpu and memory first.
func TestProcCgroup(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{":/user.slice/session-1.scope", "/user.slice/session-1.scope"},
		{"cpu:/a:b;:/", "/a:b"},
		{"name=systemd:/;pids:/;memory:/process_api/ab12;cpu:/;:/", "/process_api/ab12"},
		{"pids:/a;cpu,cpuacct:/b;:/", "/b"},
		{"name=systemd:/x;:/", "/x"},
		{"cpu:/;:/", "/"},
		{"memory:/m", "/m"},
		{"nonsense", "/"},
	} {
		if got := procCgroup(ns.RawS(tt.in)); got != ns.RawS(tt.want) {
			t.Errorf("%q: %+v, want %q", tt.in, got, tt.want)
		}
	}
	if na := ns.RawNA(ns.ReasonNotPresent); procCgroup(na) != na {
		t.Error("a value that is not there became one")
	}
}
