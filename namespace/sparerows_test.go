package namespace

import "testing"

// Issue 38 item 5: rows made at their size the first time; once outgrown, made a quarter larger,
// so a class gaining an instance at a time (new processes) does not make its rows anew at each.
func TestSpareRowsGrowWithRoom(t *testing.T) {
	_, c, _ := benchClass(t, 0) // a registered class: its tables compiled
	var sp spareBufs
	cols, insts := sp.rows(c, 100, 10)
	if cap(cols.nums) != 1000 || cap(cols.flags) != 1000 || cap(insts) != 100 {
		t.Fatalf("first rows: cap %d values, %d instances, want 1000 and 100", cap(cols.nums), cap(insts))
	}
	sp.cols, sp.insts = cols, insts
	cols, insts = sp.rows(c, 101, 10)
	if cap(cols.nums) != 1010+1010/4 || cap(cols.flags) != 1010+1010/4 || cap(insts) != 101+101/4 {
		t.Fatalf("outgrown: cap %d values, %d instances, want a quarter more", cap(cols.nums), cap(insts))
	}
	sp.cols, sp.insts = cols, insts
	again, againInsts := sp.rows(c, 110, 10)
	if &again.nums[0] != &cols.nums[0] || &againInsts[0] != &insts[0] || len(again.nums) != 1100 || len(againInsts) != 110 {
		t.Error("nine more instances made the rows anew")
	}
}
