//go:build race

package dds

// raceDetector: the race detector keeps shadow memory of its own, which no release gives back.
const raceDetector = true
