package pcpwire

import (
	"testing"
	"time"
)

// hostMetrics are the metrics of one collection of a host through the Linux PMDA, as dcimon's
// classes read them: how many of each kind, their instance domain (0: a single value) and type.
var hostMetrics = []struct {
	n     int   // metrics of this kind
	indom int   // 'c' per processor, 'd' per disk, 'n' per interface, 'f' per file system, 'l' load, 0 single
	typ   int32 // PM_TYPE_*
}{
	{12, 'c', TypeU64},   // kernel.percpu.cpu.{user,nice,sys,idle,wait.total,intr,irq.*,steal,guest,…}
	{14, 'd', TypeU64},   // disk.dev.{read,write,total,blkread,…,read_bytes,write_bytes,…,read_merge,…}
	{4, 'd', TypeU32},    // disk.dev.{avactive,aveq,read_rawactive,write_rawactive}
	{10, 'n', TypeU64},   // network.interface.{in,out}.{bytes,packets,errors,drops}, baudrate, …
	{2, 'n', TypeU32},    // network.interface.{mtu,up}
	{7, 'f', TypeU64},    // filesys.{capacity,used,free,maxfiles,usedfiles,freefiles,avail}
	{1, 'f', TypeString}, // filesys.mountdir
	{1, 'l', TypeFloat},  // kernel.all.load
	{70, 0, TypeU64},     // mem.util.*, kernel.all.*, swap.*, network.{ip,tcp,udp}.*, mem.vmstat.*
	{11, 0, TypeU32},     // hinv.ncpu, kernel.all.{running,blocked,uptime}, …
	{4, 0, TypeString},   // kernel.uname.{release,machine,nodename,distro}
}

// hostResult is a PDU_HIGHRES_RESULT as pmcd sends it for one collection of a host with ncpu
// processors, ndisk disks and nif interfaces (and 2 file systems): 136 metrics.
func hostResult(ncpu, ndisk, nif int) []byte {
	insts := map[int]int{'c': ncpu, 'd': ndisk, 'n': nif, 'f': 2, 'l': 3, 0: 1}
	res := &Result{Time: time.Unix(1795221088, 671108341)}
	item := uint32(0)
	for _, k := range hostMetrics {
		for range k.n {
			item++
			vs := ValueSet{PMID: 60<<22 | item, ValFmt: ValDPtr}
			if k.typ == TypeU32 {
				vs.ValFmt = ValInsitu
			}
			for i := range insts[k.indom] {
				inst := int32(i)
				if k.indom == 0 {
					inst = InNull
				}
				v := Value{Inst: inst, Insitu: k.typ == TypeU32, Word: item * 1000, BlockType: uint8(k.typ)}
				switch k.typ {
				case TypeU64:
					v.Block = be.AppendUint64(nil, uint64(item)<<33+uint64(i))
				case TypeFloat:
					v.Block = be.AppendUint32(nil, 0x3f1eb852)
				case TypeString:
					v.Block = []byte("6.18.44-fc-v782\x00")
				}
				vs.Values = append(vs.Values, v)
			}
			res.Sets = append(res.Sets, vs)
		}
	}
	return AppendResult(nil, 0, true, res)
}

// BenchmarkDecodeResultHost is the decoder's share of collecting one host: its fetch answer of
// 136 metrics for 8 processors, 16 disks and 4 interfaces, decoded into a reused Result.
func BenchmarkDecodeResultHost(b *testing.B) {
	pdu := hostResult(8, 16, 4)
	body := pdu[HeaderLen:]
	var r Result
	b.SetBytes(int64(len(pdu)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeResult(body, StampHighRes, &r); err != nil {
			b.Fatal(err)
		}
	}
	if len(r.Sets) != 136 {
		b.Fatalf("%d metrics", len(r.Sets))
	}
}
