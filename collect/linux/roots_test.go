package linux

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/shirou/gopsutil/v3/common"
)

func TestRootsFromContext(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	if got := rootsFrom(bg); got != hostRoots() || !got.live() {
		t.Errorf("rootsFrom(background) = %+v, want the live host", got)
	}
	fx := treeRoots("testdata/basic/t0")
	if fx.proc != filepath.Join("testdata", "basic", "t0", "proc") || fx.sys != filepath.Join("testdata", "basic", "t0", "sys") {
		t.Errorf("treeRoots = %+v", fx)
	}
	if got := rootsFrom(withRoots(bg, fx)); got != fx || got.live() {
		t.Errorf("round trip = %+v, want %+v (not live)", got, fx)
	}
	// A map with only some keys (as a user of gopsutil might build) fills the rest from the host.
	partial := context.WithValue(bg, common.EnvKey, common.EnvMap{common.HostProcEnvKey: "/x/proc"})
	want := hostRoots()
	want.proc = "/x/proc"
	if got := rootsFrom(partial); got != want {
		t.Errorf("partial map = %+v, want %+v", got, want)
	}
	// A value of the wrong type is ignored.
	if got := rootsFrom(context.WithValue(bg, common.EnvKey, map[string]string{"HOST_PROC": "/y"})); got != hostRoots() {
		t.Errorf("wrong type = %+v", got)
	}
}

func TestGopsutilContextIsComplete(t *testing.T) {
	t.Parallel()
	partial := context.WithValue(context.Background(), common.EnvKey, common.EnvMap{common.HostSysEnvKey: "/x/sys"})
	env, ok := gopsutilContext(partial).Value(common.EnvKey).(common.EnvMap)
	if !ok {
		t.Fatal("no EnvMap")
	}
	keys := []common.EnvKeyType{common.HostProcEnvKey, common.HostSysEnvKey, common.HostEtcEnvKey, common.HostVarEnvKey,
		common.HostRunEnvKey, common.HostDevEnvKey, common.HostRootEnvKey}
	for _, k := range keys {
		if env[k] == "" {
			t.Errorf("%s empty: gopsutil would fall back to the process environment", k)
		}
	}
	if env[common.HostSysEnvKey] != "/x/sys" || env[common.HostProcEnvKey] != "/proc" {
		t.Errorf("map = %v", env)
	}
}

// House style rule 3: the process environment never points a provider anywhere, neither ours nor
// gopsutil's (which would read HOST_PROC for an empty key).
func TestRootsIgnoreProcessEnvironment(t *testing.T) { // not parallel: Setenv
	t.Setenv("HOST_PROC", "/nonexistent/proc")
	t.Setenv("HOST_SYS", "/nonexistent/sys")
	if got := rootsFrom(context.Background()); got != hostRoots() {
		t.Errorf("rootsFrom read the environment: %+v", got)
	}
	ctx := gopsutilContext(fixtureCtx(t, "basic", "t0"))
	var st procStat
	if err := readStat(ctx, &fileReader{}, &st); err != nil {
		t.Fatal(err)
	}
	if st.total.ticks[cpuUser] != 8565 {
		t.Errorf("read the wrong tree: user = %d", st.total.ticks[cpuUser])
	}
}
