package linux

import "fmt"

// snmpTable is a whole /proc/net/snmp-style file: for each prefix ("Tcp"), its keys and values.
// The provider reads only the fields it wants, by position (tcpipProvider.readSNMP); the table,
// every field parsed and checked, is what the tests hold its reading to.
type snmpTable map[string]map[string]int64

// visit adds one field to the table (a parseSNMP visitor).
func (t snmpTable) visit(prefix, key []byte, v int64) {
	m := t[string(prefix)]
	if m == nil {
		m = map[string]int64{}
		t[string(prefix)] = m
	}
	m[string(key)] = v
}

// get is the value of prefix's key, ok false when the file has no such field.
func (t snmpTable) get(prefix, key string) (int64, bool) {
	v, ok := t[prefix][key]
	return v, ok
}

// parseSNMP parses /proc/net/snmp or /proc/net/netstat (read from src) whole: the pairs of lines
// nextSNMPPair cuts, each header's every field with its value, all of them checked. Every field
// is handed to visit, which must not keep the slices.
func parseSNMP(src string, data []byte, visit func(prefix, key []byte, v int64)) error {
	n, fields := 0, 0
	for {
		sp, rest, ok, err := nextSNMPPair(src, data, &n)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		data = rest
		keys, values := fieldsOf(sp.names, nil), fieldsOf(sp.values, nil)
		if len(keys) != len(values) {
			return fmt.Errorf("tcpip: parse %s line %d: %d names but %d values (line %q)", src, n, len(keys), len(values), sp.vals)
		}
		fields += len(keys)
		for i, k := range keys {
			v, err := snmpValue(values[i])
			if err != nil {
				return fmt.Errorf("tcpip: parse %s line %d: %s: %w (line %q)", src, n, k, errNotNumber, sp.vals)
			}
			visit(sp.prefix, k, v)
		}
	}
	if fields == 0 {
		return fmt.Errorf("tcpip: parse %s: %w", src, errNoData)
	}
	return nil
}
