package linux

import "testing"

const netDevHeader = "Inter-|   Receive                                                |  Transmit\n" +
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"

func seq16(mul uint64) [numNetCols]uint64 {
	var v [numNetCols]uint64
	for i := range v {
		v[i] = uint64(i+1) * mul
	}
	return v
}

func TestParseNetDev(t *testing.T) {
	t.Parallel()
	type nic struct {
		name string
		v    [numNetCols]uint64
	}
	tests := []struct {
		name     string
		in       string
		want     []nic
		wantErrs []string
	}{
		{
			name: "real capture",
			in: netDevHeader +
				"    lo:    3193      29    0    0    0     0          0         0     3193      29    0    0    0     0       0          0\n" +
				"  eth0: 31814958    2389    0    0    0     0          0         0   233174    2114    0    0    0     0       0          0\n",
			want: []nic{
				{"lo", [numNetCols]uint64{netRxBytes: 3193, netRxPackets: 29, netTxBytes: 3193, netTxPackets: 29}},
				{"eth0", [numNetCols]uint64{netRxBytes: 31814958, netRxPackets: 2389, netTxBytes: 233174, netTxPackets: 2114}},
			},
		},
		{
			name: "long name without a space before the numbers, u64 maximum",
			in: netDevHeader + "verylongifname0:1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				"  eth1: 18446744073709551615 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
			want: []nic{
				{"verylongifname0", seq16(1)},
				{"eth1", func() [numNetCols]uint64 { v := seq16(1); v[0] = 1<<64 - 1; return v }()},
			},
		},
		{
			name: "no header (a truncated copy) still parses the data lines",
			in:   "  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
			want: []nic{{"eth0", seq16(1)}},
		},
		{
			name: "names keep their bytes, inner spaces included",
			in: netDevHeader + "\x1b[31mred\x1b[0m: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				"  caf\xe9: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				" my if: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
			want: []nic{{"\x1b[31mred\x1b[0m", seq16(1)}, {"caf\xe9", seq16(1)}, {"my if", seq16(1)}},
		},
		{
			name: "malformed lines are reported, good lines kept",
			in: netDevHeader +
				"    lo: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				"  eth0: 1 2 3\n" +
				"\x00\x01\x02 garbage \xff\n" +
				"  eth1: 10 20 30 40 50 60 70 80 90 100 110 120 130 140 150 160\n" +
				"  eth2 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				"  eth3: 1 2 3 4 5 6 7 8 18446744073709551616 10 11 12 13 14 15 16\n" +
				"    : 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" +
				"  eth4: -1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
			want: []nic{{"lo", seq16(1)}, {"eth1", seq16(10)}},
			wantErrs: []string{
				`net: parse /proc/net/dev line 4: too few fields: got 3 statistics, want 16 (line "  eth0: 1 2 3")`,
				`line 5: too few fields: no "name:" (line "\x00\x01\x02 garbage \xff")`,
				`line 7: too few fields: no "name:"`,
				`line 8: field 9: number out of range: "18446744073709551616" does not fit in 64 bits`,
				`line 9: too few fields: empty interface name`,
				`line 10: field 1: not a decimal number: "-1"`,
			},
		},
		{name: "header only", in: netDevHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseNetDev("/proc/net/dev", []byte(tt.in), nil)
			checkLineErrs(t, err, tt.wantErrs)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d interfaces, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				if got[i].name != w.name || got[i].v != w.v {
					t.Errorf("interface %d = %q %v\nwant %q %v", i, got[i].name, got[i].v, w.name, w.v)
				}
			}
		})
	}
}

func TestNetColString(t *testing.T) {
	t.Parallel()
	for c, want := range map[netCol]string{netRxBytes: "rx_bytes", netRxFrame: "rx_frame", netRxMulticast: "rx_multicast",
		netTxColls: "tx_colls", netTxCarrier: "tx_carrier", netTxCompressed: "tx_compressed", netCol(16): "netCol(16)"} {
		if got := c.String(); got != want {
			t.Errorf("String(%d) = %q, want %q", int(c), got, want)
		}
	}
}
