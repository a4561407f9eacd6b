// Package ui is dcimon's interactive monitor: the bubbletea root model, its panes (the name
// space tree, the values of the selected context, the SPMI hotsets, the inspector of every
// attribute and the event log), the layout, the key maps and help, the filter, go-to and hotset
// form modes, the one tick chain and the collection command, and Run.
//
// Run gives bubbletea the input and the model but not the terminal: package ui/internal/screen
// puts the terminal in the monitor's modes and gives it back on every exit path, and draws a
// frame only when it changed, writing only the rows that differ. run.go is the only file that
// talks to it, and keeps the monitor's start-up rule (a frame before the first collection is
// provisional for up to placeholderWait). The monitor tells
// its sampler which classes are on screen (subscribe.go), so the rest is read only now and then.
//
// The monitor reads everything through Sampler, an interface defined here on the consumer's side:
// the collect package's sampler satisfies it in the program and a fixture satisfies it in tests.
// Collection only ever runs inside a tea.Cmd; Update and View never block and never do I/O.
package ui
