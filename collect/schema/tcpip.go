package schema

import ns "dcimon/namespace"

const (
	ipASN  = 8
	tcpASN = 9
	udpASN = 10
)

// StackStat is one statistic of the stack: where it is read and how it is declared.
type StackStat struct {
	ID           uint8
	name         string
	File, Prefix string // "snmp" or "netstat", and the table's prefix; "sockstat" for tw
	Key          string
	unit         ns.Unit
	Level        bool // a count now (a gauge), not a counter
	pcp          string
	desc, help   string
}

// Statistic ids of IP (8), TCP (9) and UDP (10), each class numbered from 1.
var (
	IPStats = []StackStat{
		{1, "inreceives", "snmp", "Ip", "InReceives", ns.UnitPackets, false, "network.ip.inreceives", "IP datagrams received", "Datagrams received from interfaces, errors included."},
		{2, "indelivers", "snmp", "Ip", "InDelivers", ns.UnitPackets, false, "network.ip.indelivers", "IP datagrams delivered", "Datagrams delivered to the protocols above (TCP, UDP, ICMP...)."},
		{3, "outrequests", "snmp", "Ip", "OutRequests", ns.UnitPackets, false, "network.ip.outrequests", "IP datagrams sent", "Datagrams the local protocols handed to IP to send (forwarded ones not included)."},
		{4, "forwdatagrams", "snmp", "Ip", "ForwDatagrams", ns.UnitPackets, false, "network.ip.forwdatagrams", "IP datagrams forwarded", "Datagrams this host forwarded as a router."},
		{5, "indiscards", "snmp", "Ip", "InDiscards", ns.UnitPackets, false, "network.ip.indiscards", "IP datagrams discarded on input", "Good datagrams dropped on the way in, for lack of buffer space for example."},
		{6, "outdiscards", "snmp", "Ip", "OutDiscards", ns.UnitPackets, false, "network.ip.outdiscards", "IP datagrams discarded on output", "Good datagrams dropped on the way out."},
		{7, "inhdrerrors", "snmp", "Ip", "InHdrErrors", ns.UnitPackets, false, "network.ip.inhdrerrors", "IP datagrams with header errors", "Datagrams dropped for a bad header: checksum, version, TTL exceeded..."},
		{8, "outnoroutes", "snmp", "Ip", "OutNoRoutes", ns.UnitPackets, false, "network.ip.outnoroutes", "IP datagrams without a route", "Datagrams dropped because no route was found."},
	}
	TCPStats = []StackStat{
		{1, "activeopens", "snmp", "Tcp", "ActiveOpens", ns.UnitConnections, false, "network.tcp.activeopens", "TCP connections opened", "Connections this host opened (SYN-SENT)."},
		{2, "passiveopens", "snmp", "Tcp", "PassiveOpens", ns.UnitConnections, false, "network.tcp.passiveopens", "TCP connections accepted", "Connections this host accepted (SYN-RCVD)."},
		{3, "attemptfails", "snmp", "Tcp", "AttemptFails", ns.UnitConnections, false, "network.tcp.attemptfails", "TCP connection attempts that failed", "Opening connections that went back to CLOSED or LISTEN."},
		{4, "estabresets", "snmp", "Tcp", "EstabResets", ns.UnitConnections, false, "network.tcp.estabresets", "TCP connections reset", "Established connections reset."},
		{5, "currestab", "snmp", "Tcp", "CurrEstab", ns.UnitConnections, true, "network.tcp.currestab", "TCP connections established now", "Connections in ESTABLISHED or CLOSE-WAIT now."},
		{6, "insegs", "snmp", "Tcp", "InSegs", ns.UnitPackets, false, "network.tcp.insegs", "TCP segments received", "Segments received, errors included."},
		{7, "outsegs", "snmp", "Tcp", "OutSegs", ns.UnitPackets, false, "network.tcp.outsegs", "TCP segments sent", "Segments sent, retransmissions excluded."},
		{8, "retranssegs", "snmp", "Tcp", "RetransSegs", ns.UnitPackets, false, "network.tcp.retranssegs", "TCP segments retransmitted", "Segments sent again: loss or congestion on the way."},
		{9, "inerrs", "snmp", "Tcp", "InErrs", ns.UnitPackets, false, "network.tcp.inerrs", "TCP segments received in error", "Segments dropped for a bad checksum or header."},
		{10, "outrsts", "snmp", "Tcp", "OutRsts", ns.UnitPackets, false, "network.tcp.outrsts", "TCP resets sent", "Segments sent with the RST flag."},
		{11, "listenoverflows", "netstat", "TcpExt", "ListenOverflows", ns.UnitConnections, false, "network.tcp.listenoverflows", "TCP accept queue overflows", "Connections dropped because a listening socket's accept queue was full."},
		{12, "listendrops", "netstat", "TcpExt", "ListenDrops", ns.UnitConnections, false, "network.tcp.listendrops", "TCP connections dropped at listen", "Connection requests a listening socket dropped, overflows included."},
		{13, "timewait", "sockstat", "TCP", "tw", ns.UnitConnections, true, "network.sockstat.tcp.tw", "TCP sockets in TIME-WAIT now", "Closed connections waiting out their TIME-WAIT, from /proc/net/sockstat."},
	}
	UDPStats = []StackStat{
		{1, "indatagrams", "snmp", "Udp", "InDatagrams", ns.UnitPackets, false, "network.udp.indatagrams", "UDP datagrams received", "Datagrams delivered to UDP sockets."},
		{2, "outdatagrams", "snmp", "Udp", "OutDatagrams", ns.UnitPackets, false, "network.udp.outdatagrams", "UDP datagrams sent", "Datagrams sent."},
		{3, "noports", "snmp", "Udp", "NoPorts", ns.UnitPackets, false, "network.udp.noports", "UDP datagrams to no port", "Datagrams for a port nothing listened on."},
		{4, "inerrors", "snmp", "Udp", "InErrors", ns.UnitPackets, false, "network.udp.inerrors", "UDP datagrams received in error", "Datagrams that could not be delivered, buffer errors included."},
		{5, "rcvbuferrors", "snmp", "Udp", "RcvbufErrors", ns.UnitPackets, false, "network.udp.recvbuferrors", "UDP receive buffer errors", "Datagrams dropped because a socket's receive buffer was full."},
		{6, "sndbuferrors", "snmp", "Udp", "SndbufErrors", ns.UnitPackets, false, "network.udp.sndbuferrors", "UDP send buffer errors", "Datagrams dropped because a socket's send buffer was full."},
	}
)

// tcpRetransID is TCP's derived retransmit share, after its counters.
const tcpRetransID = 14

// stackMaxRate bounds the stack's counters: far above what any host sends, so that only a corrupt
// or rewritten counter exceeds it (Datum.MaxRate).
const stackMaxRate = 1e10

func stackDatums(stats []StackStat) []ns.Datum {
	out := make([]ns.Datum, 0, len(stats)+1)
	for _, s := range stats {
		src := "/proc/net/" + s.File + " " + s.Prefix + ": " + s.Key
		var d ns.Datum
		if s.Level {
			d = ns.Gauge(s.ID, s.name, ns.TypeUint8, s.unit, s.desc, src).WithScale(0, 10000)
		} else {
			d = ns.Counter(s.ID, s.name, ns.TypeUint8, s.unit, s.desc, src).WithScale(0, 10000).WithMaxRate(stackMaxRate)
		}
		out = append(out, d.WithPCPName(s.pcp).WithHelp(s.help))
	}
	return out
}

// TCPIPClasses declares IP (8), TCP (9) and UDP (10), each a single instance with its own
// SPMI context, as Host is.
func TCPIPClasses() (ip, tcp, udp *ns.Class) {
	retrans := sourced(ns.Derived(tcpRetransID, "retrans_pct", ns.DerivedPercent, ns.PMSemInstant, "Share of TCP segments retransmitted",
		8, 7).WithScale(0, 1).WithHelp("retranssegs / (retranssegs + outsegs) over the interval: the share of the segments sent that were sent again."), "derived: PERCENT(retranssegs, outsegs)")
	ip = &ns.Class{ID: ns.ClassID{ipASN}, Name: "IP", Desc: "IP datagrams (netstat -s)", Flags: ns.ClassEnabled,
		Help: "The host's IPv4 counters from /proc/net/snmp.", Levels: SingleLevel(), Datums: stackDatums(IPStats)}
	tcp = &ns.Class{ID: ns.ClassID{tcpASN}, Name: "TCP", Desc: "TCP connections and segments (netstat -s)", Flags: ns.ClassEnabled,
		Help:   "The host's TCP counters from /proc/net/snmp and /proc/net/netstat, and TIME-WAIT sockets from /proc/net/sockstat.",
		Levels: SingleLevel(), Datums: append(stackDatums(TCPStats), retrans)}
	udp = &ns.Class{ID: ns.ClassID{udpASN}, Name: "UDP", Desc: "UDP datagrams (netstat -s)", Flags: ns.ClassEnabled,
		Help: "The host's UDP counters from /proc/net/snmp.", Levels: SingleLevel(), Datums: stackDatums(UDPStats)}
	return ip, tcp, udp
}

const TCPIPModule, TCPIPTitle = "dcimon-tcpip", "Network stack"
