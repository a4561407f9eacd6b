package views

import "dcimon/namespace"

// The DCI4 gatherer contract (DCI4-SUP-7): a gatherer prints at least the first 20 characters
// of a supplier title, 50 of its description and 20 of a statistic name. It may print more.
const (
	MinTitle       = 20
	MinDescription = 50
	MinStatName    = 20
)

// SupplierText lays out a supplier's title and description for a pane width cells wide: the
// title in one line and the description in at most descLines lines (0: as many as it needs),
// each cut with "…" when longer — but never shorter than the contract's minimum: at a width too
// narrow for the minimum on the lines allowed, the text wraps onto extra lines instead (AMB-57).
func SupplierText(s *namespace.Supplier, width, descLines int) (title, desc []string) {
	return FitText(s.Title, width, MinTitle, 1), FitText(s.Description, width, MinDescription, descLines)
}

// StatName lays out a statistic name in one line of width cells, wrapping onto more lines
// only when the width is below the contract's 20 characters (DCI4-SUP-7, AMB-57).
func StatName(name string, width int) []string {
	return FitText(name, width, MinStatName, 1)
}
