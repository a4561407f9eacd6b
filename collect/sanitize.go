package collect

import ns "dcimon/namespace"

// sanitizeName makes a name from the kernel (device, interface, host, dm name, serial) safe to print
// on a terminal under the name space's one escaping rule (namespace.EscapeName), the same in paths
// and descriptions (checklist DCI4-STR-1: non-printable bytes are escaped).
func sanitizeName(s string) string { return ns.EscapeName(s) }
