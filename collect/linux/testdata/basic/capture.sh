#!/usr/bin/env bash
# capture.sh DIR: copy the procfs and sysfs files dcimon's collect package reads from the live host into
# DIR (laid out like /: DIR/proc/..., DIR/sys/...), as regular files and directories (no symlinks), then
# scrub them: the host name becomes "fixturehost", every non-zero MAC address a locally administered
# 02:dc:00:00:00:<ifindex>, every disk serial FAKE-SERIAL-<device>. Files the kernel refuses to read
# (speed and carrier of a down or virtual interface) are left out, which is how a fixture says "unreadable".
set -eu
out=$1
mkdir -p "$out"

copy() { # copy SRC to $out/SRC when it is readable
	local src=$1
	local data
	data=$(cat "$src" 2>/dev/null) || return 0
	mkdir -p "$out/$(dirname "$src")"
	printf '%s\n' "$data" >"$out/$src"
}

for f in stat diskstats net/dev loadavg meminfo vmstat uptime sys/kernel/hostname sys/kernel/osrelease; do
	copy /proc/$f
done
# /proc/self is the reading process; cat copies its own stat and statm.
mkdir -p "$out/proc/self"
cat /proc/self/stat >"$out/proc/self/stat"
cat /proc/self/statm >"$out/proc/self/statm"

for d in /sys/block/*; do
	dev=$(basename "$d")
	for a in dev ro size removable serial device/serial dm/name; do
		copy "/sys/block/$dev/$a"
	done
	for p in "$d"/*/partition; do
		[ -e "$p" ] || continue
		part=$(basename "$(dirname "$p")")
		for a in partition dev size ro; do
			copy "/sys/block/$dev/$part/$a"
		done
	done
	udev=/run/udev/data/b$(cat "$d/dev")
	[ -e "$udev" ] && copy "$udev"
done

for i in /sys/class/net/*; do
	[ -d "$i" ] || continue
	ifn=$(basename "$i")
	for a in address mtu ifindex flags speed operstate carrier; do
		copy "/sys/class/net/$ifn/$a"
	done
done

# Scrub.
echo fixturehost >"$out/proc/sys/kernel/hostname"
for a in "$out"/sys/class/net/*/address; do
	mac=$(cat "$a")
	[ "$mac" = 00:00:00:00:00:00 ] && continue
	idx=$(cat "$(dirname "$a")/ifindex")
	printf '02:dc:00:00:00:%02x\n' "$idx" >"$a"
done
for s in "$out"/sys/block/*/serial "$out"/sys/block/*/device/serial; do
	[ -e "$s" ] || continue
	dev=$(basename "$(dirname "$s")")
	[ "$dev" = device ] && dev=$(basename "$(dirname "$(dirname "$s")")")
	echo "FAKE-SERIAL-$dev" >"$s"
done
if [ -d "$out/run/udev/data" ]; then
	sed -i -E 's/^(E:ID_SERIAL(_SHORT)?=).*/\1FAKE-SERIAL/' "$out"/run/udev/data/*
fi
