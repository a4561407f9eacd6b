package schema

import (
	"strings"

	ns "dcimon/namespace"
)

const fsASN = 6

// FS datum low bytes.
const (
	FSSizeID = 1 + iota
	FSUsedID
	FSAvailID
	FSInodesID
	FSIUsedID
	FSIFreeID
	FSROID
	FSDeviceID
	FSTypeID
	FSOptionsID
	fsPctUsedID  // derived: PERCENT(used, avail), df's Use%
	fsPctIUsedID // derived: PERCENT(iused, ifree), df -i's IUse%
)

// FSName is an instance's name in the tree: the mount point with its slashes as U+2215 DIVISION
// SLASH, which reads the same and is not the path separator (`/home` is `FS/∕home`).
func FSName(point string) string { return strings.ReplaceAll(point, "/", "∕") }

// FSClasses declares FS (6, uninstantiated) and one instance per file system (6.2).
func FSClasses() (top, fsc *ns.Class) {
	size := func(id uint8, name, desc, src, help string) ns.Datum {
		return ns.Gauge(id, name, ns.TypeUint8, ns.UnitBytes, desc, src).WithScale(0, 1<<40).WithPCPName(pmdaMetric(fsPMDA[:], id)).WithHelp(help)
	}
	count := func(id uint8, name, desc, src, help string) ns.Datum {
		return ns.Gauge(id, name, ns.TypeUint8, ns.UnitInodes, desc, src).WithScale(0, 1e8).WithPCPName(pmdaMetric(fsPMDA[:], id)).WithHelp(help)
	}
	pctUsed := sourced(ns.Derived(fsPctUsedID, "%used", ns.DerivedPercent, ns.PMSemInstant, "Share of the space in use (df Use%)", FSUsedID, FSAvailID).
		WithScale(0, 1).WithHelp("used / (used + avail), as df rounds it: the space an unprivileged user can still write is what counts."), "derived: PERCENT(used, avail)")
	pctIUsed := sourced(ns.Derived(fsPctIUsedID, "%iused", ns.DerivedPercent, ns.PMSemInstant, "Share of the inodes in use (df -i IUse%)", FSIUsedID, FSIFreeID).
		WithScale(0, 1).WithHelp("iused / (iused + ifree): a file system out of inodes is full however much space it has."), "derived: PERCENT(iused, ifree)")
	top = &ns.Class{ID: ns.ClassID{fsASN}, Name: "FS", Desc: "Mounted file systems", Flags: ns.ClassEnabled,
		Help: "Mounted file systems as df shows them: /proc/self/mountinfo, each asked with statfs(2) under a deadline."}
	fsc = &ns.Class{ID: ns.ClassID{fsASN, 2}, Name: "fs", Desc: "One mounted file system", Flags: ns.ClassEnabled,
		Help:     "Sizes and inodes of one mounted file system. Pseudo file systems and second mounts of a device are left out, as df does.",
		InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}},
		Datums: []ns.Datum{
			size(FSSizeID, "size", "Size", "statfs f_blocks × f_frsize", "The file system's size."),
			size(FSUsedID, "used", "Space in use", "statfs (f_blocks − f_bfree) × f_frsize", "Space in use, the root's reserve included."),
			size(FSAvailID, "avail", "Space free for unprivileged users", "statfs f_bavail × f_frsize", "Space an unprivileged user can still write: what df shows as Avail."),
			count(FSInodesID, "inodes", "Inodes", "statfs f_files", "How many files the file system can hold."),
			count(FSIUsedID, "iused", "Inodes in use", "statfs f_files − f_ffree", "Files and directories that exist."),
			count(FSIFreeID, "ifree", "Inodes free", "statfs f_ffree", "Files that can still be created."),
			ns.Discrete(FSROID, "ro", ns.TypeBoolean, ns.UnitNone, "Mounted read-only", "/proc/self/mountinfo mount options").
				WithVolatility(ns.SVVariable).WithDCI4(ns.STBoolean, ns.SBFNormal, ns.SBPYesNo).WithScale(0, 1).
				WithPCPName(pmdaMetric(fsPMDA[:], FSROID)).WithHelp("Whether the mount refuses writes."),
			variableText(FSDeviceID, "device", "Mounted device or source", "/proc/self/mountinfo mount source", "What is mounted: a block device, a server's export, a name."),
			variableText(FSTypeID, "type", "File system type", "/proc/self/mountinfo file system type", "ext4, xfs, nfs4, tmpfs..."),
			variableText(FSOptionsID, "options", "Mount options", "/proc/self/mountinfo mount options", "The mount's options, as mount(8) lists them."),
			pctUsed, pctIUsed,
		}}
	namePCP(fsc, fsPMDA[:])
	return top, fsc
}

const FSModule, FSTitle = "dcimon-fs", "File systems"

// fsPMDA is where the Linux PMDA keeps each file system datum (filesys.*, one instance a mount).
var fsPMDA = [...]Binding{
	{Datum: FSSizeID, Metric: "filesys.capacity"}, {Datum: FSUsedID, Metric: "filesys.used"}, {Datum: FSAvailID, Metric: "filesys.avail"},
	{Datum: FSInodesID, Metric: "filesys.maxfiles", Mult: 1}, {Datum: FSIUsedID, Metric: "filesys.usedfiles", Mult: 1},
	{Datum: FSIFreeID, Metric: "filesys.freefiles", Mult: 1}, {Datum: FSROID, Metric: "filesys.readonly", Mult: 1},
}
