package screen

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
)

func TestStraysAreCaughtAndReplayed(t *testing.T) {
	out, errOut := os.Stdout, os.Stderr
	s := CatchStrays()
	fmt.Println("printed by someone")
	fmt.Fprintln(os.Stderr, "Caught panic: a library")
	l := log.New(os.Stderr, "", 0) // a logger made while the monitor runs
	l.Print("a log line")
	log.Print("the standard logger")
	var got bytes.Buffer
	if !s.Release(&got) {
		t.Fatal("nothing caught")
	}
	if os.Stdout != out || os.Stderr != errOut {
		t.Fatal("standard output and error not restored")
	}
	for _, want := range []string{"printed by someone", "Caught panic: a library", "a log line", "the standard logger", "while the monitor ran"} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("replay lacks %q:\n%s", want, got.String())
		}
	}
	// Nothing printed: nothing replayed.
	s = CatchStrays()
	got.Reset()
	if s.Release(&got) || got.Len() != 0 {
		t.Errorf("replayed %q with nothing printed", got.String())
	}
}

func TestStraysReplayIsBounded(t *testing.T) {
	s := CatchStrays()
	fmt.Print(strings.Repeat("x", strayLimit+100))
	var got bytes.Buffer
	s.Release(&got)
	if !strings.Contains(got.String(), "... 100 more bytes") || got.Len() > strayLimit+200 {
		t.Errorf("replay of %d bytes: %q...", got.Len(), got.String()[:80])
	}
}
