// Package dds reads the users' statistics: one supplier per file or program of the suppliers
// directories (Prometheus or OpenMetrics text, parsed by package supply), its families declared as
// classes under DDS/<vendor>; DDS finds the suppliers as they come and go (the sampler's
// Discoverer). These are SPMI's dynamic data suppliers.
package dds
