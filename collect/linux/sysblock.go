package linux

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// blockDev is the sysfs description of one block device (a whole disk; partitions are in parts). It
// changes rarely (DCI4 SV_VARIABLE): read it when the device appears and at most every five minutes.
type blockDev struct {
	name         string      // directory name under /sys/block, which is also the /proc/diskstats name
	major, minor uint32      // /sys/block/<dev>/dev
	sizeBytes    uint64      // /sys/block/<dev>/size (512-byte sectors) ×512
	readOnly     bool        // /sys/block/<dev>/ro
	removable    bool        // /sys/block/<dev>/removable
	have         blockHave   // which of size, ro and removable were read
	serial       string      // see serialFrom; "" when the device has none we can read
	serialFrom   string      // where serial came from: "udev ID_SERIAL", "sysfs device/serial" or "sysfs serial"
	dmName       string      // /sys/block/<dev>/dm/name for device-mapper devices, exact bytes; "" otherwise
	parts        []blockPart // sorted by number
}

// blockPart is one partition of a blockDev.
type blockPart struct {
	name         string // directory name, also the /proc/diskstats name
	number       uint64 // /sys/block/<dev>/<part>/partition
	major, minor uint32
	sizeBytes    uint64
	readOnly     bool
	have         blockHave
}

// blockHave says which optional sysfs attributes were read, so that an unreadable one is "no
// data" rather than a size of 0 or a writable device (X-5).
type blockHave struct {
	size, ro, removable bool
}

// listBlockDevs lists the whole block devices under <sys>/block, sorted by name (partitions are not
// listed there; readBlockDev finds them).
func listBlockDevs(ctx context.Context) ([]string, error) {
	return listDirs(ctx, "disk", filepath.Join(rootsFrom(ctx).sys, "block"))
}

// readBlockDev reads the sysfs attributes of whole block device name and its partitions. The serial is
// looked for where udev keeps it (<run>/udev/data/b<major>:<minor>, E:ID_SERIAL), then in
// device/serial (NVMe, MMC) and serial (virtio). Partitions are sorted by number.
func readBlockDev(ctx context.Context, fr *fileReader, name string) (blockDev, error) {
	d := blockDev{name: name}
	if err := ctx.Err(); err != nil {
		return d, err
	}
	if err := checkName(name); err != nil {
		return d, fmt.Errorf("disk: %w", err)
	}
	r := rootsFrom(ctx)
	dir := filepath.Join(r.sys, "block", name)
	if _, err := os.Stat(dir); err != nil {
		return d, fmt.Errorf("disk: %w", err) // gone (unplugged): one error, not one per attribute
	}
	var errs []error
	var err error
	if d.major, d.minor, d.sizeBytes, d.readOnly, d.have, err = readBlockCommon(fr, dir); err != nil {
		errs = append(errs, err)
	}
	if data, err := readAttr(fr, dir, "removable"); err != nil {
		errs = append(errs, err)
	} else if d.removable, err = parseBool01(filepath.Join(dir, "removable"), data); err != nil {
		errs = append(errs, err)
	} else {
		d.have.removable = true
	}
	if data, err := fr.read(filepath.Join(dir, "dm", "name")); err == nil {
		d.dmName = string(trimNewline(data))
	}
	if d.major != 0 { // block major 0 does not exist: dev was unreadable
		udev := filepath.Join(r.run, "udev", "data", fmt.Sprintf("b%d:%d", d.major, d.minor))
		if data, err := fr.read(udev); err == nil {
			if v, ok := udevProperty(data, "ID_SERIAL"); ok {
				d.serial, d.serialFrom = v, "udev ID_SERIAL"
			}
		}
	}
	for _, c := range []struct{ rel, from string }{
		{filepath.Join("device", "serial"), "sysfs device/serial"},
		{"serial", "sysfs serial"},
	} {
		if d.serialFrom != "" {
			break
		}
		if data, err := fr.read(filepath.Join(dir, c.rel)); err == nil {
			if v := trimSpace(data); len(v) > 0 {
				d.serial, d.serialFrom = string(v), c.from
			}
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		errs = append(errs, fmt.Errorf("disk: %w", err))
	}
	for _, e := range ents {
		pdir := filepath.Join(dir, e.Name())
		data, err := fr.read(filepath.Join(pdir, "partition"))
		if err != nil {
			continue // not a partition: queue/, power/, holders/, ...
		}
		p := blockPart{name: e.Name()}
		if p.number, err = parseUint(trimSpace(data)); err != nil {
			errs = append(errs, fmt.Errorf("disk: parse %s: %w", filepath.Join(pdir, "partition"), err))
			continue
		}
		if p.major, p.minor, p.sizeBytes, p.readOnly, p.have, err = readBlockCommon(fr, pdir); err != nil {
			errs = append(errs, err)
		}
		d.parts = append(d.parts, p)
	}
	slices.SortFunc(d.parts, func(a, b blockPart) int { return cmp.Compare(a.number, b.number) })
	return d, errors.Join(errs...)
}

// readBlockCommon reads the attributes disks and partitions share: dev, size and ro.
func readBlockCommon(fr *fileReader, dir string) (major, minor uint32, sizeBytes uint64, ro bool, have blockHave, err error) {
	var errs []error
	if data, err := readAttr(fr, dir, "dev"); err != nil {
		errs = append(errs, err)
	} else if major, minor, err = parseDevNum(data); err != nil {
		errs = append(errs, fmt.Errorf("disk: parse %s: %w", filepath.Join(dir, "dev"), err))
	}
	if data, err := readAttr(fr, dir, "size"); err != nil {
		errs = append(errs, err)
	} else if sectors, err := parseUint(trimSpace(data)); err != nil {
		errs = append(errs, fmt.Errorf("disk: parse %s: %w", filepath.Join(dir, "size"), err))
	} else if sectors > (1<<64-1)/sectorSize {
		errs = append(errs, fmt.Errorf("disk: parse %s: %w", filepath.Join(dir, "size"), errOverflow))
	} else {
		sizeBytes, have.size = sectors*sectorSize, true
	}
	if data, err := readAttr(fr, dir, "ro"); err != nil {
		errs = append(errs, err)
	} else if ro, err = parseBool01(filepath.Join(dir, "ro"), data); err != nil {
		errs = append(errs, err)
	} else {
		have.ro = true
	}
	return major, minor, sizeBytes, ro, have, errors.Join(errs...)
}

func readAttr(fr *fileReader, dir, name string) ([]byte, error) {
	data, err := fr.read(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	return data, nil
}

// parseDevNum parses a sysfs "dev" attribute, "major:minor".
func parseDevNum(b []byte) (major, minor uint32, err error) {
	b = trimSpace(b)
	colon := bytes.IndexByte(b, ':')
	if colon < 0 {
		return 0, 0, fmt.Errorf("%w: %q is not major:minor", errNotNumber, b)
	}
	ma, err := parseUint(b[:colon])
	if err != nil {
		return 0, 0, err
	}
	mi, err := parseUint(b[colon+1:])
	if err != nil {
		return 0, 0, err
	}
	if ma > 1<<32-1 || mi > 1<<32-1 {
		return 0, 0, fmt.Errorf("%w: %q", errOverflow, b)
	}
	return uint32(ma), uint32(mi), nil
}

// parseBool01 parses a sysfs boolean, "0" or "1".
func parseBool01(src string, b []byte) (bool, error) {
	switch string(trimSpace(b)) {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("disk: parse %s: %q is not 0 or 1", src, trimSpace(b))
}

// udevProperty returns the value of property key ("E:key=value" lines) from a udev database file
// (/run/udev/data/b<major>:<minor>).
func udevProperty(data []byte, key string) (string, bool) {
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		if len(line) > 2 && line[0] == 'E' && line[1] == ':' {
			kv := line[2:]
			eq := bytes.IndexByte(kv, '=')
			if eq >= 0 && string(kv[:eq]) == key {
				return string(kv[eq+1:]), true
			}
		}
	}
	return "", false
}
