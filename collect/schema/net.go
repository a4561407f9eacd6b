package schema

import ns "dcimon/namespace"

// Hardware bounds of the interface counters (Datum.MaxRate), far above any link made: 2.5×10^11
// bytes per second (2 Tbit/s) and 2×10^9 packets per second (minimum-size frames at 800 Gbit/s
// are 1.2×10^9).
const (
	netMaxBytes   = 2.5e11
	netMaxPackets = 2e9
)

// netDatums declares the statistics of one network interface.
func netDatums() []ns.Datum {
	cnt := func(id uint8, name string, u ns.Unit, desc string, max float64, help string) ns.Datum {
		bound := netMaxPackets
		if u == ns.UnitBytes {
			bound = netMaxBytes
		}
		d := ns.Counter(id, name, ns.TypeUint8, u, desc, "/proc/net/dev "+netFields[id-1]+" (u64)").
			WithScale(0, max).WithMaxRate(bound).WithHelp(help)
		if u == ns.UnitBytes {
			// Where the link's speed is known, no more than it carries, with 5% for framing
			// and clocks (issue 41 item 10): speed is in bits per second.
			d = d.WithRateBound(NetSpeedID, 1.05/8)
		}
		return d
	}
	flag := func(id uint8, name, desc, bit string, pres uint32, vol ns.Volatility, help string) ns.Datum {
		return ns.Discrete(id, name, ns.TypeBoolean, ns.UnitNone, desc, "/sys/class/net/<if>/flags "+bit).
			WithVolatility(vol).WithDCI4(ns.STBoolean, ns.SBFNormal, pres).WithScale(0, 1).WithHelp(help)
	}
	// Link state (up, running, speed) changes with a cable or a command at any moment: it is
	// SV_VOLATILE and read at every collection (DCI4-DESC-3); the rest is SV_VARIABLE.
	speed := ns.Discrete(NetSpeedID, "speed", ns.TypeUint8, ns.UnitCount, "Link speed, bits per second", "/sys/class/net/<if>/speed, Mbit/s ×10^6").
		WithVolatility(ns.SVVolatile).WithScale(0, 100e9).
		WithHelp("The link's nominal speed; not valid (n/a, never 0) where the driver does not know it, for virtual interfaces and while the link is down.")
	speed.PCP.Units = ns.PMUnits{DimCount: 1, DimTime: -1, ScaleTime: ns.PMTimeSec} // a rate of bits, not a count
	inv := sourced(ns.InvalidList().WithHelp("mac, ipv4 and speed are not valid for an interface that has none (DCI-INV-1)."), "sysfs and netlink")
	return []ns.Datum{
		cnt(NetIBytesID, "ibytes", ns.UnitBytes, "Bytes received", 125e6, "Bytes received, shown as a rate."),
		cnt(NetOBytesID, "obytes", ns.UnitBytes, "Bytes sent", 125e6, "Bytes sent, shown as a rate."),
		cnt(NetIPacketsID, "ipackets", ns.UnitPackets, "Packets received", 100000, "Packets received, shown as a rate."),
		cnt(NetOPacketsID, "opackets", ns.UnitPackets, "Packets sent", 100000, "Packets sent, shown as a rate."),
		cnt(NetIErrorsID, "ierrors", ns.UnitPackets, "Receive errors", 100, "Bad packets received (CRC, length, overrun...), shown as a rate."),
		cnt(NetOErrorsID, "oerrors", ns.UnitPackets, "Transmit errors", 100, "Packets that could not be sent, shown as a rate."),
		cnt(NetIDropsID, "idrops", ns.UnitPackets, "Received packets dropped", 100, "Packets received and dropped (no buffer, filtered...), shown as a rate."),
		cnt(NetODropsID, "odrops", ns.UnitPackets, "Outgoing packets dropped", 100, "Packets dropped on the way out, shown as a rate."),
		ns.Discrete(NetMACID, "mac", ns.TypeOctetString, ns.UnitNone, "Link-layer (MAC) address", "/sys/class/net/<if>/address").
			WithVolatility(ns.SVVariable).WithDCI4(ns.STAddress, ns.SAFEthernet, ns.SAPNormal).
			WithHelp("The 6-byte Ethernet address; not valid for interfaces without one (tunnels, WireGuard) or with another kind."),
		ns.Discrete(NetIPv4ID, "ipv4", ns.TypeOctetString, ns.UnitNone, "First IPv4 address", "netlink RTM_GETADDR (gopsutil net.Interfaces), live host only").
			WithVolatility(ns.SVVariable).WithDCI4(ns.STAddress, ns.SAFIP, ns.SAPNormal).
			WithHelp("The interface's first IPv4 address; not valid where it has none, and under a tree, which has no netlink."),
		ns.Discrete(NetMTUID, "mtu", ns.TypeUint4, ns.UnitNone, "Maximum transmission unit, bytes (decimal)", "/sys/class/net/<if>/mtu").
			WithVolatility(ns.SVVariable).WithScale(0, 65536).WithHelp("The largest packet the interface sends, in bytes."),
		ns.Discrete(NetIfIndexID, "ifindex", ns.TypeUint4, ns.UnitNone, "Interface index", "/sys/class/net/<if>/ifindex").
			WithScale(0, 65536).WithHelp("The kernel's interface index, also the instance value; a re-created interface gets a new one."),
		flag(NetUpID, "up", "Administratively up", "IFF_UP", ns.SBPYesNo, ns.SVVolatile, "Whether the interface was brought up (ip link set up)."),
		flag(NetBroadcastID, "broadcast", "Broadcast capable", "IFF_BROADCAST", ns.SBPYesNo, ns.SVVariable, "Whether the link supports broadcast."),
		flag(NetLoopbackID, "loopback", "Loopback interface", "IFF_LOOPBACK", ns.SBPTrueFalse, ns.SVVariable, "Whether this is a loopback interface."),
		ns.Discrete(NetRunningID, "running", ns.TypeBoolean, ns.UnitNone, "Up and operationally running", "/sys/class/net/<if>/flags IFF_UP and operstate").
			WithVolatility(ns.SVVolatile).WithDCI4(ns.STBoolean, ns.SBFNormal, ns.SBPYesNo).WithScale(0, 1).
			WithHelp("What IFF_RUNNING says: up, with operstate up or unknown (sysfs never shows IFF_RUNNING itself)."),
		speed,
		consumerDerived(ns.Derived(netBytesID, "bytes", ns.DerivedSum2, ns.PMSemCounter, "Bytes received and sent", NetIBytesID, NetOBytesID),
			250e6, "ibytes + obytes; as a rate, the interface's total throughput."),
		consumerDerived(ns.Derived(netPacketsID, "packets", ns.DerivedSum2, ns.PMSemCounter, "Packets received and sent", NetIPacketsID, NetOPacketsID),
			200000, "ipackets + opackets."),
		inv,
	}
}

// NetClasses declares NetIf (3, uninstantiated) and one instance per interface (3.2, SiContInst:
// interfaces come and go). The instance value is the kernel's ifindex, and so is the SPMI
// number. An interface that disappears and comes back is a new instance either way — seen
// missing for a collection, the name space removes and re-adds it; re-created between two
// collections, it has a new ifindex, or, with the same one, counters that went backwards, a
// discontinuity — so no rate is ever computed across it, although the supplier's reset value
// (the boot time) does not change.
func NetClasses() (top, iface *ns.Class) {
	top = &ns.Class{ID: ns.ClassID{NetASN}, Name: "NetIf", Desc: "Network interface statistics", Flags: ns.ClassEnabled,
		Help: "Network interfaces from /proc/net/dev, with their sysfs attributes."}
	iface = &ns.Class{ID: ns.ClassID{NetASN, 2}, Name: "netif", Desc: "One network interface", Flags: ns.ClassEnabled | ns.ClassPossibleInvalidData,
		Help:     "One network interface. Instance value: its ifindex (a hash of the name with the top bit set where sysfs has none).",
		InstFreq: ns.SiContInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagDevice, Size: 4}},
		Datums: netDatums()}
	namePCP(iface, ifacePMDA())
	return top, iface
}

const NetModule, NetTitle = "dcimon-net", "Network interfaces"

// NetIf datum low bytes: the /proc/net/dev counters, the sysfs attributes, then the derived sums.
const (
	NetIBytesID    = 1 + iota // rx_bytes
	NetOBytesID               // tx_bytes
	NetIPacketsID             // rx_packets
	NetOPacketsID             // tx_packets
	NetIErrorsID              // rx_errs
	NetOErrorsID              // tx_errs
	NetIDropsID               // rx_drop
	NetODropsID               // tx_drop
	NetMACID                  // sysfs address
	NetIPv4ID                 // first IPv4 address (netlink, live host only)
	NetMTUID                  // sysfs mtu
	NetIfIndexID              // sysfs ifindex
	NetUpID                   // IFF_UP
	NetBroadcastID            // IFF_BROADCAST
	NetLoopbackID             // IFF_LOOPBACK
	NetRunningID              // up and operationally up
	NetSpeedID                // sysfs speed
	netBytesID                // derived: ibytes + obytes
	netPacketsID              // derived: ipackets + opackets
	netNumIDs      = iota     // datums before the invalid-data list
)

// netFields are the /proc/net/dev columns of the counter datums (index id-1: ibytes to odrops).
var netFields = [NetODropsID]string{"rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_errs", "tx_errs", "rx_drop", "tx_drop"}

// ifacePMDA is where the Linux PMDA keeps an interface's counters and state (network.interface).
func ifacePMDA() []Binding {
	return []Binding{
		{Datum: NetIBytesID, Metric: "network.interface.in.bytes"}, {Datum: NetOBytesID, Metric: "network.interface.out.bytes"},
		{Datum: NetIPacketsID, Metric: "network.interface.in.packets"}, {Datum: NetOPacketsID, Metric: "network.interface.out.packets"},
		{Datum: NetIErrorsID, Metric: "network.interface.in.errors"}, {Datum: NetOErrorsID, Metric: "network.interface.out.errors"},
		{Datum: NetIDropsID, Metric: "network.interface.in.drops"}, {Datum: NetODropsID, Metric: "network.interface.out.drops"},
		{Datum: NetMTUID, Metric: "network.interface.mtu", Mult: 1}, {Datum: NetUpID, Metric: "network.interface.up", Mult: 1},
		{Datum: NetRunningID, Metric: "network.interface.running", Mult: 1},
		// bytes per second as bits per second, the datum's unit; a driver that does not know
		// the speed gives sysfs -1, which the PMDA passes on as 2^32-1 Mbit/s: not valid
		{Datum: NetSpeedID, Metric: "network.interface.baudrate", Mult: 8, Check: func(r ns.Raw) ns.Raw {
			if r.State == ns.RawOK && r.N >= 4294967295e6 {
				return ns.RawInvalidData()
			}
			return r
		}},
	}
}
