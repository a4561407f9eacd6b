package cli

import (
	"bufio"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Issue 40 item 7: a pmproxy that answers a request twice (pmproxy 6.0.3 does after some
// failures) has Go's HTTP client log "Unsolicited response received on idle HTTP channel" on
// the standard logger; dcimon's standard error holds only dcimon's own words.
func TestNoGoLogLines(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	const answer = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"success\":false}"
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					for { // a request's head, up to its blank line
						line, err := r.ReadString('\n')
						if err != nil {
							return
						}
						if line == "\r\n" {
							break
						}
					}
					if _, err := c.Write([]byte(answer)); err != nil {
						return
					}
					time.Sleep(50 * time.Millisecond)
					if _, err := c.Write([]byte(answer)); err != nil { // the answer nobody asked for
						return
					}
				}
			}()
		}
	}()
	bin := buildDcimon(t)
	cmd := exec.Command(bin, "get", "CPU/busy", "--source", "pcp://"+l.Addr().String(), "--hosts", "h1,h2", "-i", "1s", "-n", "2")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	_ = cmd.Run() // the hosts fail: what matters is what was said
	if strings.Contains(stderr.String(), "Unsolicited") || strings.Contains(stderr.String(), "HTTP channel") {
		t.Errorf("Go's own log line on dcimon's standard error:\n%s", stderr.String())
	}
}
