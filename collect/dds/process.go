package dds

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
)

// No supplier program outlives dcimon (issue 29, item 13). A program runs in a process group of
// its own, so that the whole group (a script and what it started) can be killed: at its deadline,
// when it is sent away, and after each run, which must leave nothing behind. That group is out of
// reach of the terminal's signals, so dcimon's own end, whichever way it comes (a command that
// returns, `q` in the monitor, a signal, a panic, SIGKILL), must kill it too. Two things do,
// neither of which needs dcimon to run any code as it ends:
//
//   - the program's leader is started with PR_SET_PDEATHSIG (SIGKILL), from one OS thread that
//     never ends (the kernel sends the signal when the thread that started the child ends, not
//     the process), so the kernel kills it when dcimon goes;
//   - a reaper, /bin/sh in a session of its own, is told each group as it starts and as it is
//     done, on a pipe only dcimon holds: when dcimon ends the pipe's end is closed by the kernel,
//     and the reaper kills every group still listed, background children of a script included.

// reaperScript keeps the list of live process groups and kills them all when its input ends. It
// ignores the signals a terminal or a `kill` of dcimon's process group would send it.
const reaperScript = `trap '' INT TERM HUP QUIT TSTP TTIN TTOU PIPE
live=' '
while read -r op pg; do
	case $op in
	+) live="$live$pg " ;;
	-) case $live in *" $pg "*) live="${live% $pg *} ${live#* $pg }" ;; esac ;;
	esac
done
for pg in $live; do kill -s KILL -- "-$pg" 2>/dev/null; done
`

// reaper is the process that kills the supplier programs' groups when dcimon ends.
type reaper struct {
	once sync.Once
	mu   sync.Mutex
	w    io.WriteCloser // nil when it could not be started
	err  error
	// for the orphans' sweep (orphans.go): whether dcimon is a child subreaper, the reaper's
	// PID, the groups of the runs under way and of the last runs over
	subreaper bool
	shell     int
	live      map[int]bool
	done      []int
}

// tell writes one line to the reaper: "+ PGID" when a group starts, "- PGID" when it is done.
func (r *reaper) tell(op byte, pgid int) {
	r.once.Do(r.start)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live == nil {
		r.live = map[int]bool{}
	}
	if op == '+' {
		r.live[pgid] = true
	} else {
		delete(r.live, pgid)
		if r.done = append(r.done, pgid); len(r.done) > maxDoneGroups {
			r.done = r.done[1:]
		}
	}
	if r.w == nil {
		return
	}
	if _, err := fmt.Fprintf(r.w, "%c %d\n", op, pgid); err != nil {
		r.err, r.w = err, nil // it is gone: the leaders' death signal still holds
	}
}

// ready starts the reaper, and makes dcimon a subreaper, before the first program runs.
func (r *reaper) ready() { r.once.Do(r.start) }

// start starts the reaper; without /bin/sh there is none, and only the leaders' death signal
// holds (its error is kept for the record).
func (r *reaper) start() {
	sub := subreap() == nil // orphans.go
	r.mu.Lock()
	r.subreaper = sub
	r.mu.Unlock()
	cmd := exec.Command("/bin/sh", "-c", reaperScript)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	w, err := cmd.StdinPipe()
	if err == nil {
		err = spawn(cmd)
	}
	if err != nil {
		r.err = fmt.Errorf("starting the reaper of supplier programs: %w", err)
		return
	}
	r.mu.Lock()
	r.w, r.shell = w, cmd.Process.Pid
	r.mu.Unlock()
	go func() { _ = cmd.Wait() }() // it ends with dcimon, or if someone kills it
}

// spawnReq is one process to start on the spawning thread.
type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

var spawner struct {
	once sync.Once
	reqs chan spawnReq
}

// spawn starts cmd from one OS thread that lives as long as dcimon, so that a death signal asked
// for in cmd.SysProcAttr (Pdeathsig) comes when dcimon ends, not when some thread of the Go
// runtime does.
func spawn(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnReq)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the process
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnReq{cmd: cmd, done: done}
	return <-done
}

// programEnv is the environment a supplier program runs with (issue 29, item 12): only these of
// dcimon's own, never a password or a token (DCIMON_PCP_PASSWORD) that dcimon was given.
var programEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ", "TMPDIR"}

// minimalEnv is programEnv's variables that are set, with a PATH of the system's directories
// when dcimon has none.
func minimalEnv() []string {
	var env []string
	for _, k := range programEnv {
		if v, ok := os.LookupEnv(k); ok && !strings.ContainsRune(v, 0) {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("PATH"); !ok {
		env = append(env, "PATH=/usr/local/bin:/usr/bin:/bin")
	}
	return env
}
