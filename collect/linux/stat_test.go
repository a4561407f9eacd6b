package linux

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"dcimon/collect/schema"
)

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		wantTotal [numCPUTimes]uint64
		wantCols  int
		wantCPUs  []int // cpu numbers in order
		wantVals  map[statKey]uint64
		wantErrs  []string // substrings, one per bad line
	}{
		{
			name: "modern kernel",
			in: "cpu  8565 0 3584 85100 798 0 38 75 0 0\n" +
				"cpu0 4157 0 1683 43111 98 0 4 26 0 0\n" +
				"cpu1 4408 0 1901 41989 700 0 33 48 0 0\n" +
				"intr 287821 0 0 15\nctxt 491645\nbtime 1795224670\nprocesses 7276\n" +
				"procs_running 1\nprocs_blocked 0\nsoftirq 91604 0 13904\n",
			wantTotal: [numCPUTimes]uint64{8565, 0, 3584, 85100, 798, 0, 38, 75, 0, 0},
			wantCols:  10,
			wantCPUs:  []int{0, 1},
			wantVals: map[statKey]uint64{statCtxt: 491645, statIntr: 287821, statBtime: 1795224670,
				statProcesses: 7276, statProcsRunning: 1, statProcsBlocked: 0, statSoftIRQ: 91604},
		},
		{
			name:      "old kernel: seven columns, offline cpu1, no softirq line",
			in:        "cpu 1 2 3 4 5 6 7\ncpu0 1 1 1 2 2 3 3\ncpu2 0 1 2 2 3 3 4\nctxt 5\n",
			wantTotal: [numCPUTimes]uint64{1, 2, 3, 4, 5, 6, 7},
			wantCols:  7,
			wantCPUs:  []int{0, 2},
			wantVals:  map[statKey]uint64{statCtxt: 5},
		},
		{
			name:      "future kernel: an eleventh column is ignored, unknown keys too",
			in:        "cpu 1 2 3 4 5 6 7 8 9 10 11\nnewkey 3\nctxt 9\n",
			wantTotal: [numCPUTimes]uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			wantCols:  10,
			wantVals:  map[statKey]uint64{statCtxt: 9},
		},
		{
			name: "malformed lines are reported, good lines kept",
			in: "cpu  10 0 20 300 4 0 1 0 0 0\ncpu0 1 2\ncpu1 5 0 10 150 2 0 1 0 0 0\ncpuX 1 2 3 4\n" +
				"ctxt\nintr 12345 1\nbtime notanumber\nprocesses 99\ncpu2 1 2 3 x\n\n",
			wantTotal: [numCPUTimes]uint64{10, 0, 20, 300, 4, 0, 1, 0, 0, 0},
			wantCols:  10,
			// cpu0 and cpu2 are there with lines that cannot be read: kept, in error; the file ends
			// inside its cpu lines, so the list may not be whole (issue 29).
			wantCPUs: []int{0, 1, 2},
			wantVals: map[statKey]uint64{statIntr: 12345, statProcesses: 99},
			wantErrs: []string{
				`line 2: too few fields: got 2 times, want at least 4`,
				`line 4: bad CPU name "cpuX"`,
				`line 5: too few fields: ctxt has no value`,
				`line 7: not a decimal number: "notanumber"`,
				`line 9: field 4: not a decimal number: "x"`,
				`it ends inside the cpu lines`,
			},
		},
		{
			// issue 29: one kernel prints every cpu line with the same columns; a line with fewer
			// was cut mid-number and its processor is kept in error.
			name:      "a cpu line with fewer times than the others",
			in:        "cpu  10 0 20 300 4 0 1 0 0 0\ncpu0 5 0 10 150 2 0 1 0 0 0\ncpu1 5 0 10 15\nintr 1\n",
			wantTotal: [numCPUTimes]uint64{10, 0, 20, 300, 4, 0, 1, 0, 0, 0},
			wantCols:  10,
			wantCPUs:  []int{0, 1},
			wantVals:  map[statKey]uint64{statIntr: 1},
			wantErrs:  []string{`line 3: cut short: cpu1 has 4 times where the others have 10`},
		},
		{
			name:      "the file ends inside its last line",
			in:        "cpu  10 0 20 300\ncpu0 10 0 20 300\nintr 1\nctxt 12",
			wantTotal: [numCPUTimes]uint64{10, 0, 20, 300},
			wantCols:  4,
			wantCPUs:  []int{0},
			wantVals:  map[statKey]uint64{statIntr: 1},
			wantErrs:  []string{`line 4: cut short: the file ends inside this line`},
		},
		{
			name:     "empty",
			in:       "",
			wantErrs: []string{"no data"},
		},
		{
			name:     "no cpu line at all",
			in:       "garbage\nmore garbage\n",
			wantErrs: []string{"no data"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var st procStat
			err := parseStat("/proc/stat", []byte(tt.in), &st)
			checkLineErrs(t, err, tt.wantErrs)
			if st.total.ticks != tt.wantTotal || st.total.columns != tt.wantCols || st.total.cpu != -1 {
				t.Errorf("total = %+v, want %v (%d columns)", st.total, tt.wantTotal, tt.wantCols)
			}
			var cpus []int
			for _, c := range st.cpus {
				cpus = append(cpus, c.cpu)
			}
			if !slices.Equal(cpus, tt.wantCPUs) {
				t.Errorf("cpus = %v, want %v", cpus, tt.wantCPUs)
			}
			for k := statKey(0); k < numStatKeys; k++ {
				want, wantOK := tt.wantVals[k]
				got, ok := st.get(k)
				if got != want || ok != wantOK {
					t.Errorf("%s = %d, %v; want %d, %v", k, got, ok, want, wantOK)
				}
			}
		})
	}
}

func TestCPUTimesHas(t *testing.T) {
	t.Parallel()
	var st procStat
	if err := parseStat("s", []byte("cpu 1 2 3 4 5 6 7\nintr 0\n"), &st); err != nil {
		t.Fatal(err)
	}
	for c := cpuUser; c < numCPUTimes; c++ {
		if got, want := st.total.has(c), c <= cpuSoftIRQ; got != want {
			t.Errorf("has(%s) = %v, want %v", c, got, want)
		}
	}
	if got := cpuGuestNice.String(); got != "guest_nice" {
		t.Errorf("String = %q", got)
	}
	if got := cpuTime(99).String(); got != "cpuTime(99)" {
		t.Errorf("String(99) = %q", got)
	}
	if got := statKey(99).String(); got != "statKey(99)" {
		t.Errorf("String(99) = %q", got)
	}
	// The doc promises that ticks convert to milliseconds exactly.
	if 1000%schema.UserHZ != 0 {
		t.Errorf("USER_HZ %d does not divide 1000", schema.UserHZ)
	}
}

func TestParseStatReusesDst(t *testing.T) {
	t.Parallel()
	var st procStat
	if err := parseStat("s", []byte("cpu 1 1 1 1\ncpu0 1 1 1 1\ncpu1 1 1 1 1\nctxt 4\n"), &st); err != nil {
		t.Fatal(err)
	}
	// A second parse must not keep anything from the first.
	if err := parseStat("s", []byte("cpu 2 2 2 2 2\ncpu0 2 2 2 2 2\nintr 5\n"), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.cpus) != 1 || st.total.columns != 5 {
		t.Errorf("after reparse: %d cpus, %d columns", len(st.cpus), st.total.columns)
	}
	if _, ok := st.get(statCtxt); ok {
		t.Errorf("ctxt kept from the previous parse")
	}
}

// checkLineErrs checks that err reports exactly the wanted lines (by substring), in order.
func checkLineErrs(t *testing.T, err error, want []string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Errorf("unexpected error: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Errorf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i := 0; i < len(lines) && i < len(want); i++ {
		if !strings.Contains(lines[i], want[i]) {
			t.Errorf("error %d = %q, want it to contain %q", i, lines[i], want[i])
		}
	}
	var joined interface{ Unwrap() []error }
	if len(want) > 1 && !errors.As(err, &joined) {
		t.Errorf("several bad lines should be joined errors: %T", err)
	}
}
