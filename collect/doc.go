// Package collect is the DCI server of dcimon: the provider contract (a DCI4 supplier declares its
// classes once and reads raw values on request: Provider, Request, Batch), the sampler that runs
// the providers under deadlines and turns their readings into snapshots with rates (Sampler), the
// Monitor class of dcimon's own cost and each provider's health, and the replay cursor that moves
// a sampler over recorded history (Replay, Timeline).
//
// The sources live in packages of their own and never import each other: collect/linux (this
// host's /proc and /sys), collect/pcp (hosts and archives through Performance Co-Pilot),
// collect/synthetic (a scriptable made-up host) and collect/dds (the users' suppliers). Every
// source fills the classes that collect/schema declares. Rates, deltas, wraps and resets are
// computed by the name space from real timestamps (house style rules 2 and 4, X-3, X-4).
package collect
