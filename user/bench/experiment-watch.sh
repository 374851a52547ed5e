# experiment-watch [KEY=VALUE...] - the 2010 experiment (experiment KEY=VALUE...)
# with Debian's `vmstat 1` and `pidstat -w -t 1` (per thread) beside it while it runs;
# their output follows the experiment's, after "== vmstat 1 ==" and
# "== pidstat -w -t 1 ==".  Run by busybox's sh from the procps boot module
# (tools/fetch-procps puts it at /usr/share/granule/experiment-watch), on
# Granule and under tools/linux-peer alike (docs/EXPERIMENT.md).
B=/bin/busybox
E=/bin/experiment
[ -x $E ] || E=/experiment		# tools/linux-peer puts the programs in /
/usr/bin/vmstat 1 > /tmp/vmstat.out &
V=$!
/usr/bin/pidstat -w -t 1 > /tmp/pidstat.out &
P=$!
$E "$@"
status=$?
# A non-interactive shell starts its background jobs with SIGINT ignored:
# pidstat installs its own handler (it prints its averages on SIGINT),
# vmstat does not and is ended by SIGTERM.
$B kill -INT $P
$B kill -TERM $V
wait
$B echo "== vmstat 1 =="
$B cat /tmp/vmstat.out
$B echo "== pidstat -w -t 1 =="
$B cat /tmp/pidstat.out
exit $status
