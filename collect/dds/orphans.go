package dds

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// A supplier program's daemon cannot outlive dcimon either (issue 41 item 5). A program that
// double-forks with setsid leaves a process in a session and group of its own, which neither
// its group's kill nor the reaper reaches, and whose parent dies: the kernel gives it to the
// nearest ancestor that is a child subreaper, else to init. dcimon makes itself one
// (PR_SET_CHILD_SUBREAPER) when it first runs a program, so that such orphans become its
// children; after each run and at each discovery it kills (SIGKILL) and reaps every child that
// came from a supplier program and is not a run under way: one in another session than dcimon's
// (a setsid daemon), or in the group of a run that is over. Other children of dcimon's (none in
// the binary; a test's own) are left alone. As a subreaper dcimon also inherits the exited
// processes of a supplier's group, which it reaps the same way, so no zombie stays.

// maxDoneGroups is how many finished runs' groups are remembered, to know their orphans.
const maxDoneGroups = 256

// subreap makes dcimon the child subreaper of its descendants.
func subreap() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// children lists dcimon's children, from each thread's /proc/self/task/TID/children.
func children() []int {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(data) {
			if pid, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// procIDs reads a process's state, group and session from /proc/PID/stat (fields 3, 5, 6,
// counted after the command's last ')').
func procIDs(pid int) (state byte, pgid, sid int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, 0, false
	}
	pgid, err1 := strconv.Atoi(string(f[2]))
	sid, err2 := strconv.Atoi(string(f[3]))
	return f[0][0], pgid, sid, err1 == nil && err2 == nil
}

// sweep kills and reaps the orphans supplier programs left: children of dcimon's that are
// not a run under way nor the reaper, and that are in another session than dcimon's or in the
// group of a finished run. It returns how many it ended.
func (r *reaper) sweep() int {
	r.mu.Lock()
	if !r.subreaper {
		r.mu.Unlock()
		return 0
	}
	live := make(map[int]bool, len(r.live))
	for pg := range r.live {
		live[pg] = true
	}
	done := make(map[int]bool, len(r.done))
	for _, pg := range r.done {
		done[pg] = true
	}
	shell := r.shell
	r.mu.Unlock()
	own, _ := unix.Getsid(0)
	n := 0
	for _, pid := range children() {
		if pid == shell || live[pid] {
			continue
		}
		state, pgid, sid, ok := procIDs(pid)
		if !ok || live[pgid] || (sid == own && !done[pgid]) {
			continue // a run under way ends with its group; a child that is not a supplier's
		}
		if state != 'Z' {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		var ws syscall.WaitStatus
		if state == 'Z' {
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		} else {
			go func() { _, _ = syscall.Wait4(pid, &ws, 0, nil) }() // dies at once: SIGKILL
		}
		n++
	}
	return n
}
