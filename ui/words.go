package ui

// The go-to's error in people's words first (issue 42 item 3): "no context or statistic Dsk;
// did you mean Disk?", then the name space's SPMI code and message, which the SPMI rules want
// shown.

import (
	"errors"

	"dcimon/namespace"
	"dcimon/views"
)

// goWords is what the status line says when the go-to's path names nothing.
func goWords(reg *namespace.Registry, path string, err error) string {
	var ne *namespace.Error
	if !errors.As(err, &ne) || (ne.Si != namespace.SiInvalidCx && ne.Si != namespace.SiNotFound) {
		return err.Error()
	}
	s := "no context or statistic " + safe(path)
	if _, near := views.NearestPath(reg, path); near != "" {
		s += "; did you mean " + safe(near) + "?"
	}
	return s + " — " + err.Error()
}
