package resident

// The module's golden helper defines -update; importing it lets `go test ./... -update` run in
// this package too (it has no golden files of its own).
import _ "dcimon/internal/golden"
