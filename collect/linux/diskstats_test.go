package linux

import (
	"errors"
	"testing"
)

func TestParseDiskstats(t *testing.T) {
	t.Parallel()
	type disk struct {
		major, minor uint32
		name         string
		columns      int
		v            [numDiskCols]uint64
	}
	tests := []struct {
		name     string
		in       string
		want     []disk
		wantErrs []string
	}{
		{
			name: "17 columns (Linux 5.5+), sectors become bytes",
			in:   " 254       0 vda 26394 5193 1334218 43112 2177 20062 952952 3620 0 10200 47179 5033 47 145088 445 9 0\n",
			want: []disk{{254, 0, "vda", 17, [numDiskCols]uint64{26394, 5193, 1334218 * 512, 43112, 2177, 20062,
				952952 * 512, 3620, 0, 10200, 47179, 5033, 47, 145088 * 512, 445, 9, 0}}},
		},
		{
			name: "11 columns (before Linux 4.18)",
			in:   "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n   8       1 sda1 1 2 3 4 5 6 7 8 9 10 11\n",
			want: []disk{
				{8, 0, "sda", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
				{8, 1, "sda1", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
			},
		},
		{
			name: "15 columns (Linux 4.18 to 5.4)",
			in:   "   8       1 sda1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
			want: []disk{
				{8, 1, "sda1", 15, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11, 12, 13, 14 * 512, 15}},
			},
		},
		{
			// issue 29: a 17-statistic line cut mid-number after its 11th looks like an old
			// kernel's; one kernel prints one count, so it is cut short, never values.
			name: "a line cut to fewer statistics than the file's others",
			in: " 254 0 vda 26394 5193 1334218 43112 2177 20062 952952 3620 0 10200 47179 5033 47 145088 445 9 0\n" +
				" 254 16 vdb 26394 5193 1334218 43112 2177 20062 952952 3620 0 10200 47\n" +
				" 254 32 vdc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
			want: []disk{
				{254, 0, "vda", 17, [numDiskCols]uint64{26394, 5193, 1334218 * 512, 43112, 2177, 20062, 952952 * 512, 3620, 0, 10200, 47179, 5033, 47, 145088 * 512, 445, 9, 0}},
				{254, 32, "vdc", 17, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11, 12, 13, 14 * 512, 15, 16, 17}},
			},
			wantErrs: []string{`line 2: cut short: 11 statistics where this kernel prints 17`},
		},
		{
			name:     "the file ends inside its last line",
			in:       " 254 0 vda 26394 5193 1334218 43112 2177 20062 952952 3620 0 10200 47",
			wantErrs: []string{`line 1: cut short: the file ends inside this line`},
		},
		{
			name:     "a count no kernel prints",
			in:       " 254 0 vda 1 2 3 4 5 6 7 8 9 10 11 12 13\n",
			wantErrs: []string{`got 13 statistics; the kernel prints 11, 15 or 17`},
		},
		{
			name: "extra future columns are ignored; tabs and blank lines are fine",
			in:   "\n8\t0\tsda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n\n",
			want: []disk{{8, 0, "sda", 17, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11, 12, 13, 14 * 512, 15, 16, 17}}},
		},
		{
			name: "32-bit millisecond columns near the wrap are kept exactly",
			in:   "8 0 sda 0 0 0 4294967295 0 0 0 4294967000 0 4294967295 4294967295\n",
			want: []disk{{8, 0, "sda", 11, [numDiskCols]uint64{3: 4294967295, 7: 4294967000, 9: 4294967295, 10: 4294967295}}},
		},
		{
			name: "malformed lines are reported, good lines kept",
			in: "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n" +
				"   8       1 sda1 50 3\n" +
				"this is not a diskstats line\n" +
				"   8      17 sdb1 1 2 x 4 5 6 7 8 9 10 11\n" +
				" 99999999999   0 big 1 2 3 4 5 6 7 8 9 10 11\n" +
				"   8\n" +
				"   8 16\n" +
				"   8 16 sdb 1 2 36028797018963968 4 5 6 7 8 9 10 11\n" +
				"   8      32 sdc 1 2 3 4 5 6 7 8 9 10 11\n" +
				"   8      33 sdc1 1 2 3 4",
			want: []disk{
				{8, 0, "sda", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
				{8, 32, "sdc", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
			},
			wantErrs: []string{
				`disk: parse /proc/diskstats line 2: too few fields: got 2 statistics, want at least 11 (line "   8       1 sda1 50 3")`,
				`line 3: major/minor: not a decimal number: "this"`,
				`line 4: field 3: not a decimal number: "x"`,
				`line 5: major/minor: number out of range: 99999999999 does not fit in 32 bits`,
				`line 6: too few fields: no device name`,
				`line 7: too few fields: no device name`,
				`line 8: read_bytes: number out of range: 36028797018963968 sectors is more than 2^64 bytes`,
				`line 10: too few fields: got 4 statistics`,
			},
		},
		{
			name: "names keep their bytes",
			in:   "8 0 sd\x1b[2Ja 1 2 3 4 5 6 7 8 9 10 11\n259 0 nvme\xff0n1 1 2 3 4 5 6 7 8 9 10 11\n",
			want: []disk{
				{8, 0, "sd\x1b[2Ja", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
				{259, 0, "nvme\xff0n1", 11, [numDiskCols]uint64{1, 2, 3 * 512, 4, 5, 6, 7 * 512, 8, 9, 10, 11}},
			},
		},
		{name: "empty file: no disks, no error", in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseDiskstats("/proc/diskstats", []byte(tt.in), nil, 0)
			checkLineErrs(t, err, tt.wantErrs)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d disks, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.major != w.major || g.minor != w.minor || g.name != w.name || g.columns != w.columns || g.v != w.v {
					t.Errorf("disk %d = %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}

func TestParseDiskstatsErrorsIs(t *testing.T) {
	t.Parallel()
	_, err := parseDiskstats("x", []byte("8 0 sda 1\n8 0 sdb 1 2 3 4 5 6 7 8 9 10 y\n"), nil, 0)
	if !errors.Is(err, errTooFewFields) || !errors.Is(err, errNotNumber) {
		t.Errorf("error %v should wrap both errTooFewFields and errNotNumber", err)
	}
}

func TestDiskColInfo(t *testing.T) {
	t.Parallel()
	// The millisecond columns and in_flight are unsigned int in the kernel: 32 bits even on 64-bit
	// kernels. Everything else is 64 bits. This is what X-3 wrap handling keys on.
	want32 := map[diskCol]bool{diskReadMs: true, diskWriteMs: true, diskInFlight: true, diskIOMs: true,
		diskWeightedMs: true, diskDiscardMs: true, diskFlushMs: true}
	for c := diskReads; c < numDiskCols; c++ {
		bits := 64
		if want32[c] {
			bits = 32
		}
		if diskColInfo[c].bits != bits {
			t.Errorf("%s: %d bits, want %d", c, diskColInfo[c].bits, bits)
		}
		if diskColInfo[c].gauge != (c == diskInFlight) {
			t.Errorf("%s: gauge = %v", c, diskColInfo[c].gauge)
		}
	}
	d := diskStat{columns: 15}
	if !d.has(diskDiscardMs) || d.has(diskFlushes) {
		t.Errorf("has() wrong for 15 columns")
	}
	if diskCol(-1).String() != "diskCol(-1)" || diskWriteBytes.String() != "write_bytes" {
		t.Errorf("String: %q %q", diskCol(-1), diskWriteBytes)
	}
}
