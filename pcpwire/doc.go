// Package pcpwire is Performance Co-Pilot's wire encoding, shared by archives and the network:
// the PDU header and framing of pmcd's protocol, the pmResult (PDU_RESULT and
// PDU_HIGHRES_RESULT on the wire, the data records of archives), descriptors and pmUnits, the
// name space's name and identifier lists, instance domains, help texts, labels, profiles,
// credentials, and PCP's error codes with their texts.
//
// Everything is big-endian and in 32-bit words; strings are padded to a word. Learned from
// libpcp's p_*.c and pdu.c and from Wireshark's PCP dissector, written anew.
//
// Every decoder takes bytes from outside (a pmcd, a proxy, a file) as hostile: each count,
// length and offset is checked against the bytes there are before it sizes an allocation or an
// index, and a PDU that breaks the encoding is a *ProtocolError (which wraps ErrIPC, as libpcp
// reports such a PDU), never a panic (FuzzPDU). A Reader never allocates more than the bytes
// that have arrived, and never beyond its limit (MaxPDU, libpcp's).
//
// The fetch path allocates nothing in the steady state: DecodeResult decodes into a Result it
// reuses, and its value blocks point into the bytes decoded.
//
// The Append* functions encode PDUs, both a client's requests and pmcd's answers (the latter
// for tests and for anything that plays pmcd). The package imports nothing of dcimon's.
package pcpwire
