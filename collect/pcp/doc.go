// Package pcp fills collect/schema's classes from Performance Co-Pilot: one mapping between the
// Linux PMDA's metrics and the schema (mapping.go), used by every source of the package: live
// hosts through pmproxy's REST API (source.go), live hosts read natively, each pmcd on a
// connection of its own through package pmcd (native.go), archives replayed as hosts (archive.go,
// timeline.go), a fleet's history in pmproxy's time series (series.go and the series_*.go beside it), and
// the recorder that writes what a sampler reads as an archive (record.go). Each host's metrics
// come through a pcpContext, whatever its source; reading.go turns a fetch into the classes'
// values. browse.go lays a host's whole PCP name space out under `PCP`, read a level at a time as
// it is explored.
package pcp
