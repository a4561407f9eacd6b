package headless

// People's words first in every error a person reads (issue 42 item 3): a path that names
// nothing is "no statistic Nope/x (see `dcimon list`)", with the nearest name when one is near;
// the SPMI and DCI codes stay in --json and in describe, after the words.

import (
	"errors"
	"fmt"
	"strings"

	"dcimon/internal/spell"
	ns "dcimon/namespace"
	"dcimon/views"
)

// PathError is a path the name space does not have, said in people's words; Err is the name
// space's error, with its SPMI and DCI codes.
type PathError struct {
	Path string // as the person wrote it
	What string // "statistic", "context", "context or statistic"
	// Near is the path with its first unknown name replaced by the nearest there is ("" when
	// none is near).
	Near string
	// Where is what to run to see the names there are (`dcimon list CPU`).
	Where string
	// Hint is the name space's advice, when it gave one (how to write a slash in a name).
	Hint string
	Err  error
}

// Error is the people's words: "no statistic Nope/x (see `dcimon list`)".
func (e *PathError) Error() string {
	s := fmt.Sprintf("no %s %s (see `%s`)", e.What, safe(e.Path), e.Where)
	if e.Near != "" {
		s += fmt.Sprintf("; did you mean %s?", safe(e.Near))
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Unwrap is the name space's error.
func (e *PathError) Unwrap() error { return e.Err }

// Codes is the name space's error as the standards name it: `SiInvalidCx (180), DCI_UNKNOWNCLASS`.
func (e *PathError) Codes() string {
	var ne *ns.Error
	if errors.As(e.Err, &ne) {
		msg := ne.Error()
		if ne.Msg != "" && strings.HasSuffix(msg, ": "+ne.Msg) {
			return strings.TrimSuffix(msg, ": "+ne.Msg)
		}
		return msg
	}
	return e.Err.Error()
}

// pathError wraps a lookup's error of path in people's words; other errors, and paths that do
// name something, are returned as they are.
func pathError(reg *ns.Registry, path, what string, err error) error {
	var ne *ns.Error
	if err == nil || !errors.As(err, &ne) {
		return err
	}
	switch ne.Si {
	case ns.SiInvalidCx, ns.SiNotFound:
	default:
		return err
	}
	pe := &PathError{Path: path, What: what, Where: "dcimon list", Err: err}
	known, near := views.NearestPath(reg, path)
	if known != "" {
		pe.Where = "dcimon list " + known
	}
	pe.Near = near
	if _, hint, ok := strings.Cut(ne.Msg, "; "); ok {
		pe.Hint = hint
	}
	if strings.Trim(path, "/0123456789.") == "" {
		pe.Hint = ne.Msg // an ASN.1 id: which part of it is missing
	}
	return pe
}

// statError is a hotset's statistic that no peer carries, in people's words, with the nearest
// statistic the peers have.
func statError(reg *ns.Registry, grandpa, stat string, err error) error {
	var ne *ns.Error
	if !errors.As(err, &ne) || ne.Si != ns.SiNotFound {
		return err
	}
	ref, lerr := reg.Lookup(nil, grandpa)
	if lerr != nil || ref.Ctx == nil {
		return err
	}
	var names []string
	for _, c := range reg.Classes() {
		if !c.Instantiated() || c.Context() != ref.Ctx {
			continue
		}
		for _, d := range c.Datums {
			if d.ID != ns.InvalidDatumID && !d.Aux {
				names = append(names, d.Name)
			}
		}
	}
	s := fmt.Sprintf("no peer of %s has a statistic %s (see `dcimon list %s`)", safe(grandpa), safe(stat), safe(ref.Ctx.Path()))
	if c := spell.Closest(stat, names); c != "" {
		s += fmt.Sprintf("; did you mean %s?", safe(c))
	}
	return &wordsError{msg: s, err: err}
}

// wordsError is an error said in people's words, wrapping the name space's.
type wordsError struct {
	msg string
	err error
}

func (e *wordsError) Error() string { return e.msg }
func (e *wordsError) Unwrap() error { return e.err }

// reqErr is the error of a path get was asked for: in people's words when it names nothing.
func reqErr(reg *ns.Registry, r request) error {
	if pe, ok := pathError(reg, r.pattern, "statistic", r.err).(*PathError); ok {
		return pe
	}
	return fmt.Errorf("%s: %w", r.pattern, r.err)
}
