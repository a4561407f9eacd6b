package namespace

import "fmt"

// Error is a refusal from the name space, carrying the DCI status and, where the SPMI guide names
// one, the SPMI code.
type Error struct {
	Status Status
	Si     SiErr
	Msg    string
	// At is where a path that did not resolve stopped: the last context it reached, and Name
	// the component it did not find there. A command tells by them whether the name could still
	// appear (an instance under a class) or never will.
	At   *Context
	Name string
}

func (e *Error) Error() string {
	switch {
	case e.Si != 0 && e.Status != StatusSuccess:
		return fmt.Sprintf("%s (%d), %s: %s", e.Si, int(e.Si), e.Status, e.Msg)
	case e.Si != 0:
		return fmt.Sprintf("%s (%d): %s", e.Si, int(e.Si), e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Status, e.Msg)
}

func errf(st Status, si SiErr, format string, args ...any) *Error {
	return &Error{Status: st, Si: si, Msg: fmt.Sprintf(format, args...)}
}
