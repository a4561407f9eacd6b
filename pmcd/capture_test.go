package pmcd

import (
	"bytes"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"dcimon/internal/pcptest"
	"dcimon/pcpwire"
)

var machineID = regexp.MustCompile(`"machineid":"[0-9a-f]*"`)

var capture = flag.Bool("capture", false, "record conversations with a real pmcd into ../pcpwire/testdata/captures (FuzzPDU's seeds)")

// tee is a relay between a client and a pmcd that keeps every byte pmcd sends.
type tee struct {
	srv *pcptest.Server
	mu  sync.Mutex
	got bytes.Buffer
}

func newTee(t *testing.T, target string) *tee {
	x := &tee{}
	keep := writerFunc(func(b []byte) (int, error) {
		x.mu.Lock()
		defer x.mu.Unlock()
		return x.got.Write(b)
	})
	x.srv = pcptest.Serve(t, func(c net.Conn) {
		pcptest.RelayTo(c, target, func(c, up net.Conn) {
			_, _ = io.Copy(io.MultiWriter(c, keep), up)
			c.Close()
		})
	})
	return x
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestRecordCaptures records, with -capture, what a real pmcd sends in three conversations: the
// metadata requests, fetches with PDU_HIGHRES_FETCH, and fetches with PDU_FETCH (as for an older
// pmcd). They are FuzzPDU's seeds. Without -capture it checks the conversations run.
func TestRecordCaptures(t *testing.T) {
	p := pcptest.Start(t)
	names := []string{"hinv.ncpu", "kernel.all.load", "disk.dev.read", "kernel.uname.release", "kernel.all.cpu.user", "mem.util.free", "no.such.metric"}
	run := func(name string, talk func(c *Conn, ids []uint32)) {
		x := newTee(t, p.Hostspec())
		c := dial(t, x.srv.Addr)
		ids, err := c.LookupNames(tctx(t), names, nil)
		if err != nil {
			t.Fatal(err)
		}
		talk(c, ids)
		c.Close()
		x.srv.Close()
		if x.got.Len() < 100 {
			t.Fatalf("%s: %d bytes recorded", name, x.got.Len())
		}
		if *capture {
			dir := filepath.Join("..", "pcpwire", "testdata", "captures")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			// This machine's id is no business of the repository's: zeros, the same length.
			b := machineID.ReplaceAllFunc(x.got.Bytes(), func(m []byte) []byte {
				return append([]byte(`"machineid":"`), append(bytes.Repeat([]byte("0"), len(m)-len(`"machineid":""`)), '"')...)
			})
			if err := os.WriteFile(filepath.Join(dir, name+".pdus"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	run("metadata", func(c *Conn, ids []uint32) {
		ctx := tctx(t)
		descs, err := c.Descs(ctx, ids, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.greeting.Features &^= pcpwire.FeatureDescs
		_, _ = c.Descs(ctx, ids, nil)
		_, _ = c.Children(ctx, "kernel.all")
		_, _ = c.Children(ctx, "no.such")
		_, _ = c.Traverse(ctx, "hinv")
		_, _ = c.InDom(ctx, descs[1].InDom)
		_, _ = c.InDom(ctx, descs[2].InDom)
		_, _ = c.Text(ctx, ids[1], pcpwire.TextOneLine|pcpwire.TextPMID)
		_, _ = c.Text(ctx, ids[0], pcpwire.TextHelp|pcpwire.TextPMID)
		_, _ = c.Text(ctx, descs[1].InDom, pcpwire.TextOneLine|pcpwire.TextInDom)
		for _, k := range []int32{pcpwire.LabelContext, pcpwire.LabelDomain, pcpwire.LabelInDom, pcpwire.LabelItem, pcpwire.LabelInstances} {
			id := ids[1]
			switch k {
			case pcpwire.LabelDomain:
				id >>= 22
			case pcpwire.LabelInDom, pcpwire.LabelInstances:
				id = descs[1].InDom
			}
			_, _ = c.Labels(ctx, k, id)
		}
	})
	fetches := func(c *Conn, ids []uint32) {
		var r pcpwire.Result
		for range 2 {
			if _, err := c.Fetch(tctx(t), append(ids[:6:6], 500<<22), &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	run("fetch-highres", fetches)
	run("fetch", func(c *Conn, ids []uint32) {
		c.greeting.Features &^= pcpwire.FeatureHighRes
		fetches(c, ids)
	})
}
