package schema

import (
	"slices"
	"strconv"
	"strings"

	ns "dcimon/namespace"
)

// PCP's proc PMDA as the source of a remote host's Proc class (issue 40 item 5): its metrics of
// the process instance domain (3.9), each bound to the datum the local Proc class reads from
// /proc, in the same units (milliseconds, bytes).

// ProcDenied says what a host's pmcd needs to serve processes: its proc PMDA checks access, and
// gives a client over TCP that has not authenticated "No permission" for proc.psinfo.* and the
// like, so an empty Proc class is never taken for a host with no processes.
const ProcDenied = "pmcd's proc PMDA serves processes only to clients it trusts: on that host, run pmdaproc with -A " +
	"in pmcd.conf (the line `proc 3 pipe binary ... pmdaproc -d 3 -A`, then restart pmcd), or read it on that host over pmcd's Unix socket " +
	"(--hosts local:), or have pmcd authenticate its clients (SASL)"

// procPMDA binds the Proc datums to the proc PMDA's metrics. The first, CPU time in user mode,
// names the instances; proc.psinfo.start_time (milliseconds after boot) is each instance's
// second level, so that a PID the kernel gives to a new process is a new instance. The start
// datum itself (seconds since the epoch) is not bound: the PMDA counts from boot.
func procPMDA() []Binding {
	return []Binding{
		{Datum: ProcUtimeID, Metric: "proc.psinfo.utime"}, {Datum: ProcStimeID, Metric: "proc.psinfo.stime"},
		{Datum: ProcStateID, Metric: "proc.psinfo.sname"}, {Datum: ProcPPIDID, Metric: "proc.psinfo.ppid"},
		{Datum: ProcUserID, Metric: "proc.id.euid_nm"}, {Datum: ProcUIDID, Metric: "proc.id.euid"},
		{Datum: ProcThreadsID, Metric: "proc.psinfo.threads", Mult: 1}, {Datum: ProcPriorityID, Metric: "proc.psinfo.priority"},
		{Datum: ProcNiceID, Metric: "proc.psinfo.nice"},
		{Datum: ProcRSSID, Metric: "proc.psinfo.rss"}, {Datum: ProcVSizeID, Metric: "proc.psinfo.vsize"}, // KB as bytes
		{Datum: ProcMinfltID, Metric: "proc.psinfo.minflt"}, {Datum: ProcMajfltID, Metric: "proc.psinfo.maj_flt"},
		{Datum: ProcRcharID, Metric: "proc.io.rchar"}, {Datum: ProcWcharID, Metric: "proc.io.wchar"},
		{Datum: ProcSyscrID, Metric: "proc.io.syscr"}, {Datum: ProcSyscwID, Metric: "proc.io.syscw"},
		{Datum: ProcReadBytesID, Metric: "proc.io.read_bytes"}, {Datum: ProcWriteBytesID, Metric: "proc.io.write_bytes"},
		// The PMDA declares the context switches instant, of no unit: counts, as /proc has them.
		{Datum: ProcVCtxID, Metric: "proc.psinfo.vctxsw", Mult: 1}, {Datum: ProcNVCtxID, Metric: "proc.psinfo.nvctxsw", Mult: 1},
		{Datum: ProcCommandID, Metric: ProcCommandMetric}, {Datum: ProcCmdlineID, Metric: "proc.psinfo.psargs"},
		{Datum: ProcCgroupID, Metric: "proc.psinfo.cgroups", Check: procCgroup},
	}
}

// ProcCommandMetric is the proc PMDA's command name of a process, its instance's label.
const ProcCommandMetric = "proc.psinfo.cmd"

// ProcStartMetric is the proc PMDA's start time of a process, the second level of its instance.
const ProcStartMetric = "proc.psinfo.start_time"

// ProcPID is a process's PID from the proc PMDA's instance name ("000123 /usr/bin/foo -x"), as
// the local Proc class names it ("123"); a name that starts with no number stays as it is.
func ProcPID(name string) string {
	n, _, _ := strings.Cut(name, " ")
	if pid, err := strconv.ParseUint(n, 10, 32); err == nil {
		return strconv.FormatUint(pid, 10)
	}
	return name
}

// procCgroup picks from the proc PMDA's control groups of a process ("cpu:/a;memory:/a;:/b",
// /proc/PID/cgroup's lines without their hierarchy numbers) the one the local Proc class
// shows: the unified hierarchy's path, or where that is the root, the first v1 controller's
// path below the root, cpu or memory first.
func procCgroup(r ns.Raw) ns.Raw {
	if r.State != ns.RawOK || r.S == "" {
		return r
	}
	v2, unified, best, rank := "", false, "", 99
	for _, part := range strings.Split(r.S, ";") {
		i := strings.IndexByte(part, ':') // a path may hold a colon, a controller not
		if i < 0 {
			continue
		}
		ctrl, path := part[:i], part[i+1:]
		if ctrl == "" {
			v2, unified = path, true
			continue
		}
		if len(path) <= 1 {
			continue
		}
		rk := 50
		for j, want := range [...]string{"cpu", "memory", "pids", "blkio", "name=systemd"} {
			if slices.Contains(strings.Split(ctrl, ","), want) {
				rk = j
				break
			}
		}
		if rk < rank {
			rank, best = rk, path
		}
	}
	switch {
	case len(v2) > 1 || (unified && best == ""):
		return ns.RawS(v2)
	case best != "":
		return ns.RawS(best)
	}
	return ns.RawS("/")
}
