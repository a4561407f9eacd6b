// Plain words for the standards' names: panes, the hotset form and `dcimon hot` say "always" and
// "above the threshold", not SiHotAlways and SiHotThreshold (issue 32 item 4). `describe` and the
// inspector keep the standards' names, since that is where the standards belong.

package views

import (
	"errors"
	"regexp"
	"strings"

	"dcimon/namespace"
)

// FeedWords is a hotset feed type in plain words: which peers are listed. The words are
// plainPairs', the ones a refusal's message gets for the same names.
func FeedWords(f namespace.HotFeed) string { return plainName(f.String()) }

// ExceptWords is a hotset exception type in plain words: what is raised past the threshold,
// plainPairs' words as FeedWords.
func ExceptWords(e namespace.HotExcept) string { return plainName(e.String()) }

// ErrWords is an SPMI return code in plain words, without its name or number.
func ErrWords(e namespace.SiErr) string {
	switch e {
	case namespace.SiSuccess:
		return "ok"
	case namespace.SiNoValue:
		return "no value yet"
	case namespace.SiBadArgument:
		return "not accepted"
	case namespace.SiNotFound:
		return "not found"
	case namespace.SiInvalidCx:
		return "no such path"
	case namespace.SiDeleted:
		return "gone"
	case namespace.SiLocked:
		return "busy, tried again at the next reading"
	}
	msg := strings.TrimSuffix(e.Text(), ".")
	if msg == "" {
		return e.String()
	}
	return strings.ToLower(msg[:1]) + msg[1:]
}

// standardIDs are the rule ids a name space message cites for the record: `(SPMI-HOT-13)`,
// `(SPMI-HOT-7, SPMI-HOT-13)`.
var standardIDs = regexp.MustCompile(`\s*\((?:(?:SPMI|DCI|PCP[A-Z]*|X|AMB)-[A-Z0-9-]+(?:,\s*)?)+\)`)

// plainPairs are the standards' words a message may carry, each followed by the plain one for it.
var plainPairs = []string{
	"except_type", "alerts", "feed_type", "feed", "maxresp", "max", "max_responses", "max",
	"SiHotNoException", "none", "SiHotException", "events", "SiHotTrap", "SNMP traps", "SiHotBoth", "events and SNMP traps",
	"SiHotNoFeed", "none", "SiHotThreshold", "past the threshold", "SiHotAlways", "always",
}

// plainTerms replaces plainPairs' words in a message.
var plainTerms = strings.NewReplacer(plainPairs...)

// plainName is the plain word for one of the standards' words, the word itself if it has none.
// It allocates nothing, as the panes call it at every frame that draws a hotset.
func plainName(word string) string {
	for i := 0; i+1 < len(plainPairs); i += 2 {
		if plainPairs[i] == word {
			return plainPairs[i+1]
		}
	}
	return word
}

// PlainError is an error for a person: a name space refusal without its SPMI code, DCI status
// and rule ids (`SiBadArgument (187), DCI_INVALIDARG: … (SPMI-HOT-13)` becomes its message), the
// standards' words in plain ones. Any other error is its text with the same words replaced.
func PlainError(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	var ne *namespace.Error
	if errors.As(err, &ne) {
		msg = ne.Msg
	}
	return plainTerms.Replace(standardIDs.ReplaceAllString(msg, ""))
}
