# rt-app-logs FILE - run Debian's rt-app on the workload FILE, then print each
# per-thread log it left in /tmp after a "==> PATH <==" line (as `tail` heads
# several files), for a reader on the console or the serial line
# (tools/granule/rtapp.py split_logs).  The workloads in workloads/ log to
# /tmp (tmpfs on both systems).  The exit status is rt-app's.  Run by
# busybox's sh from the rt-app boot module (tools/fetch-rtapp puts it at
# /usr/share/granule/rt-app-logs), on Granule and under tools/linux-peer
# alike (docs/RTAPP.md):
#   run="sh /usr/share/granule/rt-app-logs workloads/ramp.json"
B=/bin/busybox
[ $# = 1 ] || { $B echo "usage: rt-app-logs FILE.json" >&2; exit 2; }
$B rm -f /tmp/*.log
/usr/bin/rt-app "$1"
status=$?
for f in /tmp/*.log; do
	[ -e "$f" ] || continue
	$B echo "==> $f <=="
	$B cat "$f"
done
exit $status
