package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// version overrides the module version when a packager sets it with
// -ldflags "-X main.version=1.2.3"; empty, the build information's is shown.
var version = ""

// buildVersion is `dcimon --version`'s line, from the running binary's build information.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionText(info, version, runtime.GOOS+"/"+runtime.GOARCH)
}

// moduleVersion is the version alone, for the man page's footer.
func moduleVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// versionText is the version line, "dcimon VERSION[, revision R, committed T, modified]; GO
// PLATFORM": the module version (`go install dcimon@v1.2.3` stamps
// v1.2.3; a build in a checkout stamps a pseudo-version, or "(devel)" without VCS stamping),
// then the VCS revision, its commit time and whether the tree had changes, as the go command
// recorded them, then the toolchain and platform. info may be nil (a binary built without
// module support); override is main.version.
func versionText(info *debug.BuildInfo, override, platform string) string {
	v, goVersion := "(unknown)", runtime.Version()
	settings := map[string]string{}
	if info != nil {
		v, goVersion = info.Main.Version, info.GoVersion
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if override != "" {
		v = override
	}
	var parts []string
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, "revision "+rev)
		if t, err := time.Parse(time.RFC3339, settings["vcs.time"]); err == nil {
			parts = append(parts, "committed "+t.UTC().Format(time.RFC3339))
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "modified")
		}
	} else if info != nil && v == "(devel)" {
		parts = append(parts, "no VCS information (built outside a checkout or with -buildvcs=false)")
	}
	return "dcimon " + strings.Join(append([]string{v}, parts...), ", ") + "; " + strings.TrimSpace(goVersion+" "+platform)
}
