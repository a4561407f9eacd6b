package linux

import "fmt"

// parseKeyed is the walk /proc/meminfo and /proc/vmstat share: lines of a key and a number, of
// which the keys in names are kept in vals (by their index in names), present saying which were
// read. split cuts a line into its key, number and what follows, or refuses it; a key not in
// names is skipped; a number that is not one, or that scale refuses, is that line's error, and
// the other lines are still stored. A file with none of the keys and no error has no data. vals
// and present are not cleared first: the caller starts them at zero.
func parseKeyed(src string, data []byte, names []string, vals []uint64, present *uint64,
	split func(line []byte) (key, num, rest []byte, err error), scale func(k int, v uint64, rest []byte) (uint64, error)) error {
	var errs lineErrs
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		key, num, rest, err := split(line)
		if err != nil {
			errs.add("mem", src, n, line, err)
			continue
		}
		k := keyIndex(names, key)
		if k < 0 {
			continue
		}
		v, err := parseUint(num)
		if err == nil {
			v, err = scale(k, v, rest)
		}
		if err != nil {
			errs.add("mem", src, n, line, err)
			continue
		}
		vals[k] = v
		*present |= 1 << k
	}
	if *present == 0 && len(errs.errs) == 0 {
		return fmt.Errorf("mem: parse %s: %w", src, errNoData)
	}
	return errs.err()
}

// keyIndex is the index of key in names, -1 when it is not there.
func keyIndex(names []string, key []byte) int {
	for k, name := range names {
		if string(key) == name {
			return k
		}
	}
	return -1
}

// kibToBytes is v KiB in bytes, or errOverflow.
func kibToBytes(v uint64) (uint64, error) {
	if v > (1<<64-1)/1024 {
		return 0, errOverflow
	}
	return v * 1024, nil
}
