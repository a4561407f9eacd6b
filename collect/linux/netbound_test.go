package linux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// Issue 41 item 10: an interface's byte counters are bounded by its link speed × 1.05 where the
// speed is known: 4 GB in a second on a 1 Gbit/s link is a discontinuity, never 3.72 GiB/s; the
// same rise on a link of unknown speed is only held to the far bound of any link made.
func TestNetBytesBoundBySpeed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		speed string
		want  ns.ValueState
	}{{"1000\n", ns.NoRate}, {"-1\n", ns.Valid}} {
		st := newSamplerTree(t)
		st.write("sys/class/net/eth0/speed", c.speed)
		dev, err := os.ReadFile(filepath.Join(st.dir, "proc/net/dev"))
		if err != nil {
			t.Fatal(err)
		}
		st.step(time.Second)
		st.step(time.Second)
		st.write("proc/net/dev", strings.Replace(string(dev), "eth0: 31814958 ", "eth0: 4031814958 ", 1))
		st.step(time.Second)
		v, _ := st.value("NetIf/eth0/ibytes")
		if v.State != c.want || (c.want == ns.NoRate && v.Reason != ns.ReasonImpossibleJump) {
			t.Errorf("speed %q: 4 GB in 1 s is %s, want %v", strings.TrimSpace(c.speed), show(v), c.want)
		}
	}
}
