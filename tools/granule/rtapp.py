"""tools/granule/rtapp.py - rt-app's JSON workload files and its per-thread logs, read in Python.

rt-app (Debian's 1.0) is the scheduler community's workload runner: a JSON file with a "global"
object (duration in s, calibration, default_policy, logdir, log_basename, ...) and "tasks", one
object per kind of thread (instance, loop, policy, priority, and events: run, sleep, timer, lock,
unlock, barrier, ...; docs/RTAPP.md).  Granule runs the same file on the image (tools/fetch-rtapp,
bin/rt-app-logs), on Debian's Linux (tools/linux-peer) and reads it here for the tests and tools.

The file is json-c's dialect: /* */ and // comments and a trailing comma are accepted, as
json-c's parser accepts them.  Thread indexes follow the file's order, each instance its own
(rt-app numbers them 0.. in the order it meets them), and thread I logs to
LOGDIR/BASENAME-TASK-I.log.

A log has a comment header ("# Policy : ...", "#idx perf run ...") and one line per period:
    idx perf run period start end rel_st slack c_duration c_period wu_lat
with times in microseconds: run and period measured, slack = the time left between the end of
the last event and the end of the period (negative when the period overran), c_duration and
c_period the configured run and timer periods, wu_lat the wakeup latency after the timer (the
time from the timer's expiry to the thread running again).
"""
import json
import re

COLUMNS = ("idx", "perf", "run", "period", "start", "end", "rel_st", "slack", "c_duration",
           "c_period", "wu_lat")


class WorkloadError(Exception):
    """A file rt-app would refuse: str(e) is the one line to print."""


def _strip(text):
    """The JSON without json-c's extensions: comments (outside strings) and trailing commas."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            m = re.compile(r'"(?:\\.|[^"\\])*"').match(text, i)
            if not m:
                raise WorkloadError("an unterminated string")
            out.append(m.group(0))
            i = m.end()
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise WorkloadError("an unterminated /* comment")
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def loads(text, name="workload"):
    """The workload as a dict (object order kept); WorkloadError for what json-c refuses."""
    try:
        cfg = json.loads(_strip(text))
    except (ValueError, WorkloadError) as e:
        raise WorkloadError(f"{name}: not JSON rt-app can parse ({e})") from None
    if not isinstance(cfg, dict) or not isinstance(cfg.get("tasks"), dict) or not cfg["tasks"]:
        raise WorkloadError(f"{name}: no \"tasks\" object (rt-app needs at least one task)")
    return cfg


def load(path):
    with open(path, encoding="utf-8") as f:
        return loads(f.read(), path)


def threads(cfg):
    """[(index, task name, task object)] in rt-app's numbering: one per instance."""
    out = []
    for name, task in cfg["tasks"].items():
        for _ in range(int(task.get("instance", 1))):
            out.append((len(out), name, task))
    return out


def log_paths(cfg):
    """{thread index: LOGDIR/BASENAME-TASK-I.log} as rt-app names them."""
    g = cfg.get("global", {})
    logdir = g.get("logdir", "./").rstrip("/") or "/"
    base = g.get("log_basename", "rt-app")
    return {i: f"{logdir}/{base}-{name}-{i}.log" for i, name, _ in threads(cfg)}


def parse_log(text):
    """The period rows of one log, as dicts of ints keyed by COLUMNS; the '#' lines are skipped."""
    rows = []
    for line in text.splitlines():
        w = line.split()
        if len(w) == len(COLUMNS) and not line.lstrip().startswith("#"):
            try:
                rows.append(dict(zip(COLUMNS, map(int, w))))
            except ValueError:
                continue
    return rows


def split_logs(output):
    """{path: period rows} from output with each log after a '==> PATH <==' line (sh /usr/share/granule/rt-app-logs,
    `tail -n +1 FILES`)."""
    logs, cur = {}, None
    for line in output.splitlines():
        m = re.match(r"^==> (.*) <==$", line.strip())
        if m:
            cur = logs.setdefault(m.group(1), [])
        elif cur is not None:
            cur.extend(parse_log(line))
    return logs


def summary(rows):
    """{n, wu_lat_mean, wu_lat_max, slack_min, slack_mean, run_mean, period_mean} in µs."""
    if not rows:
        return {"n": 0}
    n = len(rows)

    def mean(k):
        return sum(r[k] for r in rows) / n
    return {"n": n, "wu_lat_mean": mean("wu_lat"), "wu_lat_max": max(r["wu_lat"] for r in rows),
            "slack_min": min(r["slack"] for r in rows), "slack_mean": mean("slack"),
            "run_mean": mean("run"), "period_mean": mean("period")}


def main(argv=None):
    """`PYTHONPATH=tools python3 -m granule.rtapp < OUTPUT`: one line per log in OUTPUT (a run of
    rt-app-logs), with its periods, wu_lat mean and max, and the least slack, in µs."""
    import sys
    logs = split_logs(sys.stdin.read())
    if not logs:
        print("rtapp: no '==> PATH <==' logs in the input (run rt-app-logs, docs/RTAPP.md)", file=sys.stderr)
        return 1
    for path, rows in sorted(logs.items()):
        s = summary(rows)
        if not s["n"]:
            print(f"{path}: no period rows")
            continue
        print(f"{path}: periods {s['n']} wu_lat mean {s['wu_lat_mean']:.0f} max {s['wu_lat_max']} "
              f"slack min {s['slack_min']} run mean {s['run_mean']:.0f} period mean {s['period_mean']:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
