// Package pcp fills collect/schema's classes from Performance Co-Pilot: one mapping between the
// Linux PMDA's metrics and the schema (mapping.go), used by three sources: a live host through
// pmproxy (source.go), an archive replayed as a host (archive.go), and the recorder that writes
// what a sampler reads as an archive (record.go). browse.go lays a host's whole PCP name space out
// under `PCP`, read a level at a time as it is explored.
package pcp
