package namespace

import "testing"

// Issue 38 item 5: rows made at their size the first time; once outgrown, made a quarter larger,
// so a class gaining an instance at a time (new processes) does not make its rows anew at each.
func TestSpareRowsGrowWithRoom(t *testing.T) {
	var cv ClassValues
	vals, insts := cv.spareRows(100, 10)
	if cap(vals) != 1000 || cap(insts) != 100 {
		t.Fatalf("first rows: cap %d values, %d instances, want 1000 and 100", cap(vals), cap(insts))
	}
	cv.spare, cv.spareInsts = vals, insts
	vals, insts = cv.spareRows(101, 10)
	if cap(vals) != 1010+1010/4 || cap(insts) != 101+101/4 {
		t.Fatalf("outgrown: cap %d values, %d instances, want a quarter more", cap(vals), cap(insts))
	}
	cv.spare, cv.spareInsts = vals, insts
	again, againInsts := cv.spareRows(110, 10)
	if &again[0] != &vals[0] || &againInsts[0] != &insts[0] || len(again) != 1100 || len(againInsts) != 110 {
		t.Error("nine more instances made the rows anew")
	}
}
