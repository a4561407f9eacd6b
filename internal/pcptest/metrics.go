package pcptest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// Metrics is what the pmproxy answers at /metrics for names (PCP names separated by commas)
// of its pmcd: OpenMetrics text, at most 1 MiB of it. The test fails on any other answer.
func (p *PCP) Metrics(t testing.TB, names string) []byte {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/metrics?hostspec=%s&names=%s", p.ProxyPort, p.Hostspec(), names)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if errors.Is(err, io.ErrUnexpectedEOF) && bytes.HasSuffix(data, []byte("\n")) {
		// pmproxy 6.0.3 sends the last chunk of a chunked answer after the connection's end
		// when it is not kept alive (kept alive, Go logs it as an unsolicited response): the
		// text is whole.
		err = nil
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %v %s\n%s", url, err, resp.Status, data)
	}
	return data
}
