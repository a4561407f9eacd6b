package linux

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"dcimon/internal/regular"
)

// IFF_* bits of /sys/class/net/<if>/flags (linux/if.h).
const (
	iffUp        = 0x1
	iffBroadcast = 0x2
	iffLoopback  = 0x8
	// iffRunning is never set in sysfs flags: sysfs prints dev->flags, and the kernel computes
	// IFF_RUNNING only for SIOCGIFFLAGS/netlink (dev_get_flags). See netIf.running.
	iffRunning   = 0x40
	iffMulticast = 0x1000
)

// errNotFromTree marks data that does not come from files and so cannot be read under a fixture tree.
var errNotFromTree = errors.New("not available under a fixture tree (read through netlink, not sysfs)")

// netIf is the sysfs description of one network interface. These change rarely (DCI4 SV_VARIABLE):
// read them when the interface appears and then at most every five minutes (AMB-56), not every tick.
type netIf struct {
	name       string // directory name under /sys/class/net, exact bytes
	address    string // link-layer address as sysfs prints it; "00:00:00:00:00:00" for loopback
	mtu        uint64 // bytes
	ifindex    uint64 // the kernel's interface index (the DCI instance value for NetIf)
	flags      uint64 // IFF_* bits, see iffUp
	speedBps   uint64 // link speed in bits per second; meaningful only when speedKnown
	speedKnown bool   // false when sysfs says -1 or refuses the read (virtual, loopback, link down)
	operstate  string // RFC 2863: up, down, unknown, dormant, lowerlayerdown, notpresent, testing
	carrier    int8   // 1 carrier, 0 no carrier, -1 unreadable (the kernel refuses it while down)
	// have says which of the attributes every interface has were read and parsed: one that was
	// not is unavailable with the error, never a 0 (issue 21).
	have struct{ address, mtu, flags bool }
}

// running reports what IFF_RUNNING would say: up, and operationally up or unknown (the kernel's
// netif_oper_up treats "unknown", as loopback reports, as up).
func (n *netIf) running() bool {
	return n.flags&iffUp != 0 && (n.operstate == "up" || n.operstate == "unknown")
}

// checkName rejects a name that would escape its directory when joined to a path: a hostile or corrupt
// /proc/net/dev or diskstats line must not make us read /sys/class/net/../../etc.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return fmt.Errorf("%w: %q", errBadName, name)
	}
	return nil
}

// listNetIfs lists the interfaces under <sys>/class/net, sorted by name. In sysfs the entries are
// symbolic links to directories; fixture trees use plain directories. Plain files such as
// bonding_masters are skipped.
func listNetIfs(ctx context.Context) ([]string, error) {
	return listDirs(ctx, "net", filepath.Join(rootsFrom(ctx).sys, "class", "net"))
}

// listDirs returns the names of the directories (or links to directories) in dir.
func listDirs(ctx context.Context, provider, dir string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", provider, err)
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if !e.IsDir() {
			fi, err := os.Stat(filepath.Join(dir, e.Name()))
			if err != nil || !fi.IsDir() {
				continue
			}
		}
		names = append(names, e.Name())
	}
	return names, nil
}

// readNetIf reads the sysfs attributes of interface name. Attributes every interface has (address, mtu,
// ifindex, flags, operstate) are errors when missing; speed and carrier are optional by nature.
func readNetIf(ctx context.Context, fr *fileReader, name string) (netIf, error) {
	n := netIf{name: name, carrier: -1}
	if err := ctx.Err(); err != nil {
		return n, err
	}
	if err := checkName(name); err != nil {
		return n, fmt.Errorf("net: %w", err)
	}
	dir := filepath.Join(rootsFrom(ctx).sys, "class", "net", name)
	if _, err := os.Stat(dir); err != nil {
		return n, fmt.Errorf("net: %w", err) // gone: one error, not one per attribute
	}
	var errs []error
	attr := func(a string) ([]byte, bool) {
		data, err := fr.read(filepath.Join(dir, a))
		if err != nil {
			errs = append(errs, fmt.Errorf("net: %w", err))
			return nil, false
		}
		return trimNewline(data), true
	}
	num := func(a string, dst *uint64, parse func([]byte) (uint64, error)) bool {
		if data, ok := attr(a); ok {
			v, err := parse(data)
			if err != nil {
				errs = append(errs, fmt.Errorf("net: parse %s: %w", filepath.Join(dir, a), err))
				return false
			}
			*dst = v
			return true
		}
		return false
	}
	if data, ok := attr("address"); ok {
		n.address, n.have.address = string(data), true
	}
	n.have.mtu = num("mtu", &n.mtu, parseUint)
	num("ifindex", &n.ifindex, parseUint)
	n.have.flags = num("flags", &n.flags, parseHex)
	if data, ok := attr("operstate"); ok {
		n.operstate = string(data)
	}
	readSpeedCarrier(fr, dir, &n)
	return n, errors.Join(errs...)
}

// linkFiles keeps an interface's flags and operstate open, to be read again at every collection
// with one pread each (a sysfs attribute is generated afresh by a read at offset 0), rather than
// opened, checked and closed four times a collection.
type linkFiles struct {
	flags, oper         attrFile
	flagsPath, operPath string // made once: a collection makes no path
}

// close gives the descriptors back (the interface has gone).
func (l *linkFiles) close() {
	l.flags.close()
	l.oper.close()
}

// attrFile is one sysfs attribute kept open (an *os.File, so a provider dropped without closing
// it still gives the descriptor back when collected). The zero value is closed.
type attrFile struct {
	f *os.File
}

// read returns the attribute's content, opening path the first time (regular files only, as every
// read, issue 21) and after an error.
func (a *attrFile) read(path string, buf []byte) ([]byte, error) {
	if a.f == nil {
		f, err := regular.Open(path)
		if err != nil {
			return nil, err
		}
		a.f = f
	}
	n, err := a.f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		a.close()
		return nil, err
	}
	return trimNewline(buf[:n]), nil
}

func (a *attrFile) close() {
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
}

// readNetLink re-reads the link state of an interface read before, the attributes that change
// with a cable or an `ip link set` at any moment (DCI4-DESC-3: SV_VOLATILE, read at every
// collection): flags and operstate from files kept open; speed and carrier again only when the
// operational state changed. The other attributes of n are kept.
func readNetLink(ctx context.Context, fr *fileReader, lf *linkFiles, n *netIf) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if lf.flagsPath == "" {
		if err := checkName(n.name); err != nil {
			return fmt.Errorf("net: %w", err)
		}
		dir := filepath.Join(rootsFrom(ctx).sys, "class", "net", n.name)
		lf.flagsPath, lf.operPath = filepath.Join(dir, "flags"), filepath.Join(dir, "operstate")
	}
	var buf [64]byte
	data, err := lf.flags.read(lf.flagsPath, buf[:])
	if err != nil {
		n.have.flags = false
		return fmt.Errorf("net: %w", err)
	}
	v, perr := parseHex(data)
	if perr != nil {
		n.have.flags = false
		return fmt.Errorf("net: parse %s: %w", lf.flagsPath, perr)
	}
	n.flags, n.have.flags = v, true
	data, err = lf.oper.read(lf.operPath, buf[:])
	switch {
	case err != nil && n.operstate == "":
		return nil
	case err != nil:
		n.operstate = ""
	case string(data) == n.operstate:
		return nil // unchanged: speed and carrier too
	default:
		n.operstate = string(data)
	}
	readSpeedCarrier(fr, filepath.Dir(lf.flagsPath), n)
	return nil
}

// readSpeedCarrier reads an interface's optional link speed and carrier from dir, both unknown
// unless read: speed fails with EINVAL for loopback and virtual interfaces and while the link is
// down, and says -1 when the driver does not know. All of these are "unknown", never 0.
func readSpeedCarrier(fr *fileReader, dir string, n *netIf) {
	n.speedBps, n.speedKnown, n.carrier = 0, false, -1
	if data, err := fr.read(filepath.Join(dir, "speed")); err == nil {
		n.speedBps, n.speedKnown = parseSpeed(trimNewline(data))
	}
	if data, err := fr.read(filepath.Join(dir, "carrier")); err == nil {
		switch string(trimNewline(data)) {
		case "0":
			n.carrier = 0
		case "1":
			n.carrier = 1
		}
	}
}

// parseSpeed parses /sys/class/net/<if>/speed (Mbit/s, -1 unknown) into bits per second. Zero and
// negative speeds are unknown (ethtool's SPEED_UNKNOWN is -1; no link runs at 0 bit/s).
func parseSpeed(b []byte) (bps uint64, known bool) {
	v, err := strconv.ParseInt(string(trimSpace(b)), 10, 64)
	if err != nil || v <= 0 || v > (1<<63-1)/1_000_000 {
		return 0, false
	}
	return uint64(v) * 1_000_000, true
}

// parseHex parses a sysfs hex value such as "0x1003".
func parseHex(b []byte) (uint64, error) {
	s := string(trimSpace(b))
	t := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if t == s || t == "" {
		return 0, fmt.Errorf("%w: %q is not 0x-prefixed hex", errNotNumber, s)
	}
	v, err := strconv.ParseUint(t, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q", errNotNumber, s)
	}
	return v, nil
}

// readIPv4 returns the IPv4 addresses (CIDR form) of interface name. They are not in sysfs or procfs:
// the standard library asks the kernel over netlink (net.Interfaces), which always describes the live
// host, so under a fixture tree this returns errNotFromTree rather than mixing two hosts.
func readIPv4(ctx context.Context, name string) ([]string, error) {
	if !rootsFrom(ctx).live() {
		return nil, fmt.Errorf("net: addresses of %q: %w", name, errNotFromTree)
	}
	ifi, err := net.InterfaceByName(name)
	if err != nil {
		return nil, fmt.Errorf("net: %w", err)
	}
	addrs, err := ifi.Addrs()
	if err != nil {
		return nil, fmt.Errorf("net: addresses of %q: %w", name, err)
	}
	var v4 []string
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil {
			v4 = append(v4, ipn.String())
		}
	}
	return v4, nil
}
