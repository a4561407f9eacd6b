//go:build !linux

package resident

import "errors"

// DropStartPages is Linux's only: elsewhere it does nothing.
func DropStartPages() (Dropped, error) {
	return Dropped{}, errors.New("resident: only on Linux")
}
