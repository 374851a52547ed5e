"""tools/granule/trace/text.py - read the kernel's trace dump (ftrace's trace file
layout, kernel/trace/trace.c) out of a serial log, into events.

Each event is a dict: comm, pid, cpu, flags (5 chars), ts (ns: the text
has microseconds, as ftrace prints them), name, fields (an ordered dict of
the TP_printk's key=value pairs, values as text) and text (what follows
"name: ").  Markers (trace_marker) are name "print" with fields {"buf": ...}.
"""
import re

BEGIN = "==== granule trace begin ===="
END_RE = re.compile(r"^==== granule trace end: (\d+) entries, (\d+) lost ====$")
WRITTEN_RE = re.compile(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)\s+#P:(\d+)$")
LINE_RE = re.compile(r"^(?P<comm>.{16})-(?P<pid>\d+)\s*\[(?P<cpu>\d{3})\] (?P<flags>\S{5})\s+"
                     r"(?P<secs>\d+)\.(?P<usecs>\d{6}): (?P<name>[a-z_]+): (?P<text>.*)$")
FIELD_RE = re.compile(r"(\w+)=(\S+)")


class TraceDump:
    """The dump: events (the CPUs' buffers merged by time), entries in the
    buffers, entries written, lost, and ncpus (the header's #P: online CPUs)."""

    def __init__(self, events, entries, written, lost, header, ncpus=1):
        self.events, self.entries, self.written, self.lost = events, entries, written, lost
        self.header = header          # the '#' lines, as printed
        self.ncpus = ncpus


def parse_fields(name, text):
    if name == "tracing_mark_write":
        return {"buf": text}
    fields = {}
    for k, v in FIELD_RE.findall(text):
        fields[k] = v
    return fields


def parse_line(line):
    m = LINE_RE.match(line)
    if not m:
        return None
    name, text = m["name"], m["text"]
    ev = {
        "comm": m["comm"].strip(), "pid": int(m["pid"]), "cpu": int(m["cpu"]),
        "flags": m["flags"], "ts": int(m["secs"]) * 1000000000 + int(m["usecs"]) * 1000,
        "name": "print" if name == "tracing_mark_write" else name,
        "text": text, "fields": parse_fields(name, text), "line": line,
    }
    return ev


def find_dump(log_text):
    """The last dump in LOG_TEXT, or raise ValueError."""
    lines = log_text.replace("\r", "").split("\n")
    starts = [i for i, l in enumerate(lines) if l.strip() == BEGIN]
    if not starts:
        raise ValueError("no '%s' line: was the kernel booted with trace_event=?" % BEGIN)
    events, header, entries, written, lost, ncpus = [], [], None, None, None, 1
    for l in lines[starts[-1] + 1:]:
        m = END_RE.match(l.strip())
        if m:
            entries, lost = int(m[1]), int(m[2])
            break
        if l.startswith("#"):
            header.append(l)
            w = WRITTEN_RE.match(l)
            if w:
                written, ncpus = int(w[2]), int(w[3])
            continue
        ev = parse_line(l)
        if ev is None:
            raise ValueError("not a trace line: %r" % l)
        events.append(ev)
    else:
        raise ValueError("the trace dump has no end line (log cut short?)")
    if entries != len(events):
        raise ValueError("the dump says %d entries but has %d lines" % (entries, len(events)))
    return TraceDump(events, entries, written, lost, header, ncpus)


def results(log_text):
    """{bench: fields} of the log's `RESULT {json}` lines (the last of each bench)."""
    import json
    out = {}
    for m in re.finditer(r"^RESULT (\{.*\})\s*$", log_text, re.M):
        try:
            r = json.loads(m.group(1))
        except ValueError:
            continue
        if isinstance(r, dict) and "bench" in r:
            out[r["bench"]] = r
    return out


def not_traced(traced, result):
    """'N samples, M not traced' against the program's RESULT count N ('N
    samples, all traced'); just the traced count without a RESULT line."""
    total = result.get("samples") if result else None
    if not isinstance(total, int):
        return "%d samples" % traced
    if traced >= total:         # the trace may also hold the expiry after the last sample
        return "%d samples, all traced" % total
    return "%d samples, %d not traced" % (total, total - traced)

