// Package screen is the monitor's terminal layer: it puts the terminal into the monitor's modes
// (raw input, alternate screen, mouse, bracketed paste, no auto-wrap) and gives it back on every
// exit path, draws frames by writing only the rows that changed (Painter), catches what anything
// else prints while it owns the terminal (Strays), follows the terminal's size (WatchSize), and
// gives the terminal back and takes it again around a job-control stop, whether by Ctrl-Z or by
// a signal from outside (Suspend, Resume, JobControl, WatchJobControl, Retake).
//
// Its surface is small on purpose: Open, Submit a Frame, Resize, Suspend, Resume, Close. It knows
// nothing of the monitor: when a frame may be held back and what happens once it is drawn are
// said by the caller with each Frame. See Screen for why the package exists and when it can be
// deleted.
package screen
