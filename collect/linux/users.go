package linux

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// userNames names user IDs from the tree's /etc/passwd, read again when it changes (looked at
// once a minute, or after a user it did not know). A user only a directory service knows keeps
// its number: dcimon links no C library to ask NSS.
type userNames struct {
	path   string
	names  map[uint64]string
	mtime  time.Time
	looked time.Time
	missed bool
}

func (u *userNames) refresh(now time.Time) {
	if u.names != nil && now.Sub(u.looked) < time.Minute && !(u.missed && now.Sub(u.looked) >= 10*time.Second) {
		return
	}
	u.looked, u.missed = now, false
	fi, err := os.Stat(u.path)
	if err == nil && u.names != nil && fi.ModTime().Equal(u.mtime) {
		return
	}
	u.names = map[uint64]string{}
	if err != nil {
		return
	}
	data, err := os.ReadFile(u.path)
	if err != nil {
		return
	}
	u.mtime = fi.ModTime()
	parsePasswd(data, u.names)
}

// parsePasswd adds name:password:uid:... lines to names; the first name of a uid wins, as
// getpwuid(3) answers.
func parsePasswd(data []byte, names map[uint64]string) {
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		name, rest, ok := bytes.Cut(line, []byte{':'})
		if !ok || len(name) == 0 || name[0] == '#' {
			continue
		}
		_, rest, ok = bytes.Cut(rest, []byte{':'})
		if !ok {
			continue
		}
		uidText, _, _ := bytes.Cut(rest, []byte{':'})
		uid, err := parseUint(uidText)
		if err != nil {
			continue
		}
		if _, dup := names[uid]; !dup {
			names[uid] = string(name)
		}
	}
}

// name is a user's name, or its number.
func (u *userNames) name(uid uint64) string {
	if n, ok := u.names[uid]; ok {
		return n
	}
	s := strconv.FormatUint(uid, 10)
	if u.names == nil {
		u.names = map[uint64]string{}
	}
	u.names[uid], u.missed = s, true
	return s
}
