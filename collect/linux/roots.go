package linux

import (
	"context"
	"path/filepath"

	"github.com/shirou/gopsutil/v3/common"
)

// roots are the directories a provider reads the host from: the live host ("/proc", "/sys", ...) or a
// fixture tree such as testdata/basic/t0. They travel in the context as the same common.EnvMap gopsutil
// reads (house style rule 3), so one context value points our parsers and gopsutil at the same tree.
type roots struct {
	proc   string // HOST_PROC: /proc/stat, /proc/diskstats, /proc/net/dev, ...
	sys    string // HOST_SYS: /sys/block, /sys/class/net
	run    string // HOST_RUN: /run/udev/data (disk serials)
	dev    string // HOST_DEV: gopsutil stats /dev/<disk> to find a disk's major:minor
	etc    string // HOST_ETC
	varDir string // HOST_VAR
	root   string // HOST_ROOT
}

// hostRoots are the live host's directories.
func hostRoots() roots {
	return roots{proc: "/proc", sys: "/sys", run: "/run", dev: "/dev", etc: "/etc", varDir: "/var", root: "/"}
}

// treeRoots are the directories of a tree laid out like "/" (dir/proc, dir/sys, ...), as the fixture trees
// under testdata and the --procfs/--sysfs flags use.
func treeRoots(dir string) roots {
	return roots{
		proc:   filepath.Join(dir, "proc"),
		sys:    filepath.Join(dir, "sys"),
		run:    filepath.Join(dir, "run"),
		dev:    filepath.Join(dir, "dev"),
		etc:    filepath.Join(dir, "etc"),
		varDir: filepath.Join(dir, "var"),
		root:   dir,
	}
}

// live reports whether r reads the running host, so that data that does not come from files (interface
// addresses through netlink) is only offered when it describes the same host as the files.
func (r roots) live() bool {
	return r == hostRoots()
}

// envMap sets every key gopsutil knows: for an empty key gopsutil falls back to the process environment
// (internal/common.GetEnvWithContext), which would let a stray HOST_PROC mix two hosts in one sample.
func (r roots) envMap() common.EnvMap {
	return common.EnvMap{
		common.HostProcEnvKey: r.proc,
		common.HostSysEnvKey:  r.sys,
		common.HostRunEnvKey:  r.run,
		common.HostDevEnvKey:  r.dev,
		common.HostEtcEnvKey:  r.etc,
		common.HostVarEnvKey:  r.varDir,
		common.HostRootEnvKey: r.root,
	}
}

// withRoots returns a context that points both our readers and gopsutil at r.
func withRoots(ctx context.Context, r roots) context.Context {
	return context.WithValue(ctx, common.EnvKey, r.envMap())
}

// rootsFrom resolves the roots from ctx. Keys missing from the context's common.EnvMap (or no map at all)
// mean the live host; the process environment is deliberately not consulted (house style rule 3).
func rootsFrom(ctx context.Context) roots {
	r := hostRoots()
	env, ok := ctx.Value(common.EnvKey).(common.EnvMap)
	if !ok {
		return r
	}
	set := func(dst *string, k common.EnvKeyType) {
		if v := env[k]; v != "" {
			*dst = v
		}
	}
	set(&r.proc, common.HostProcEnvKey)
	set(&r.sys, common.HostSysEnvKey)
	set(&r.run, common.HostRunEnvKey)
	set(&r.dev, common.HostDevEnvKey)
	set(&r.etc, common.HostEtcEnvKey)
	set(&r.varDir, common.HostVarEnvKey)
	set(&r.root, common.HostRootEnvKey)
	return r
}
