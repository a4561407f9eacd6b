package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"dcimon/views"
)

// hostsCmd is `dcimon hosts`: a fleet's hosts table without the monitor (issue 40 item 4).
func hostsCmd(cfg *config) *cobra.Command {
	hosts := &cobra.Command{
		Use:   "hosts",
		Short: "a fleet's hosts table: each host's state, CPU, memory, load, disk and network",
		Long: `Print a row per host of a fleet (several --hosts, archives or --series): whether it answers
and why not, the share of its processors busy, of its memory used, its 1-minute load, its
busiest disk's share of time busy, its network bytes a second in and out (loopback left out)
and the age of its reading; the figures of the monitor's hosts table. The first reading is
printed one interval after the start, so its rates are over it.`,
		Example: `  dcimon hosts --hosts @fleet.txt
  dcimon hosts --hosts web1,web2,db1 --sort cpu -i 5s -n 0
  dcimon hosts --source pcp://monitor:44322 --hosts web1,web2 --json`,
		Args: cobra.NoArgs,
		RunE: ranCmd(cfg, "hosts"),
	}
	fs := hosts.Flags()
	addSampling(fs, cfg, "read every `D` (e.g. 1s, 500ms); rates are over it", true)
	inGroup(fs, grpOutput, func() {
		fs.StringVar(&cfg.hostsSort, "sort", "name", "sort by `KEY`: "+strings.Join(views.HostKeys, ", ")+" (figures largest first)")
		fs.BoolVar(&cfg.hostsReverse, "reverse", false, "sort the other way round")
	})
	addJSON(fs, cfg, "print JSON lines, one object per reading (docs/json.md)")
	addSource(fs, cfg, seriesSource)
	addConfig(fs, cfg)
	return hosts
}
