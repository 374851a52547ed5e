"""tools/granule/trace/dat.py - write trace-cmd's trace.dat, file format version 6
(trace-cmd.dat.v6(5)), for a 32-bit little-endian target with 4 KiB pages.

Layout: magic, "tracing", "6", endianness, long size, page size; the
header_page and header_event descriptions; the ftrace event formats (print);
the event formats per system (sched, timer); kallsyms; printk formats;
saved cmdlines; the CPU count; "flyrecord"; the offset and size of each
CPU's data, which is ring-buffer pages (page header: u64 timestamp, u32
commit; then events with a 32-bit header: type_len 5 bits, time_delta 27
bits), CPU 0's at a page-aligned offset and each next CPU's after it (as
trace-cmd record writes one section per CPU, from that CPU's buffer: so
`trace-cmd report` shows cpus=N and KernelShark a row per CPU).

The event formats are the "format" files of Linux 6.1's
/sys/kernel/tracing/events/*/*/format for its events, with 32-bit sizes
for long and pointers, and ours for sched_place, sched_preempt_check and
posix_timer_expire.  Each event's record is packed from the fields parsed
out of the text dump (tools/granule/trace/text.py).
"""
import struct

PAGE = 4096
PAGE_HDR = 12                      # u64 timestamp + u32 commit (32-bit local_t)
TS_BITS = 27
TYPE_TIME_EXTEND = 30

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")

# (type, size, signed, kind) per field; kind: s = string, i = int, p = pointer
I32, U64, S64, PTR = ("int", 4, 1, "i"), ("u64", 8, 0, "i"), ("s64", 8, 1, "i"), ("void *", 4, 0, "p")
PID = ("pid_t", 4, 1, "i")
COMM = ("char", 16, 0, "s")

STATE_MASK = "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"
STATE_PLUS = "(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"

# system, name, id, fields [(name, (type, size, signed, kind))], print fmt
EVENTS = [
    ("sched", "sched_switch", 316, [
        ("prev_comm", COMM), ("prev_pid", PID), ("prev_prio", ("int", 4, 1, "i")),
        ("prev_state", ("long", 4, 1, "i")), ("next_comm", COMM), ("next_pid", PID),
        ("next_prio", ("int", 4, 1, "i"))],
     '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d", '
     'REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ' + STATE_MASK + ') ? '
     '__print_flags(REC->prev_state & ' + STATE_MASK + ', "|", { 0x00000001, "S" }, { 0x00000002, "D" }, '
     '{ 0x00000004, "T" }, { 0x00000008, "t" }, { 0x00000010, "X" }, { 0x00000020, "Z" }, '
     '{ 0x00000040, "P" }, { 0x00000080, "I" }) : "R", REC->prev_state & ' + STATE_PLUS + ' ? "+" : ""'),
    ("sched", "sched_wakeup", 318, [("comm", COMM), ("pid", PID), ("prio", I32), ("target_cpu", I32)],
     '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, REC->target_cpu'),
    ("sched", "sched_wakeup_new", 317, [("comm", COMM), ("pid", PID), ("prio", I32), ("target_cpu", I32)],
     '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, REC->target_cpu'),
    ("sched", "sched_process_fork", 312, [("parent_comm", COMM), ("parent_pid", PID),
                                          ("child_comm", COMM), ("child_pid", PID)],
     '"comm=%s pid=%d child_comm=%s child_pid=%d", REC->parent_comm, REC->parent_pid, '
     'REC->child_comm, REC->child_pid'),
    ("sched", "sched_process_exit", 314, [("comm", COMM), ("pid", PID), ("prio", I32)],
     '"comm=%s pid=%d prio=%d", REC->comm, REC->pid, REC->prio'),
    ("sched", "sched_stat_runtime", 305, [("comm", COMM), ("pid", PID), ("runtime", U64), ("vruntime", U64)],
     '"comm=%s pid=%d runtime=%Lu [ns] vruntime=%Lu [ns]", REC->comm, REC->pid, '
     '(unsigned long long)REC->runtime, (unsigned long long)REC->vruntime'),
    ("sched", "sched_place", 330, [("comm", COMM), ("pid", PID), ("old_vruntime", U64), ("vruntime", U64),
                                   ("min_vruntime", U64), ("delta", S64), ("reason", I32)],
     '"comm=%s pid=%d old_vruntime=%Lu vruntime=%Lu min_vruntime=%Lu delta=%Ld reason=%s", REC->comm, '
     'REC->pid, REC->old_vruntime, REC->vruntime, REC->min_vruntime, REC->delta, '
     '__print_symbolic(REC->reason, { 0, "initial" }, { 1, "wakeup" }, { 2, "start_nice" })'),
    ("sched", "sched_preempt_check", 331, [("check", I32), ("curr_pid", PID), ("pid", PID), ("ran", S64),
                                           ("slice", S64), ("vdiff", S64), ("gran", S64), ("resched", I32)],
     '"check=%s curr_pid=%d pid=%d ran=%Ld slice=%Ld vdiff=%Ld gran=%Ld resched=%d", '
     '__print_symbolic(REC->check, { 0, "tick" }, { 1, "wakeup" }), REC->curr_pid, REC->pid, REC->ran, '
     'REC->slice, REC->vdiff, REC->gran, REC->resched'),
    ("timer", "hrtimer_expire_entry", 88, [("hrtimer", PTR), ("now", S64), ("function", PTR)],
     '"hrtimer=%p function=%ps now=%llu", REC->hrtimer, REC->function, REC->now'),
    ("timer", "hrtimer_expire_exit", 87, [("hrtimer", PTR)], '"hrtimer=%p", REC->hrtimer'),
    ("timer", "posix_timer_expire", 99, [("timer_id", I32), ("pid", PID), ("signo", I32), ("overrun", I32)],
     '"timer_id=%d pid=%d signo=%d overrun=%d", REC->timer_id, REC->pid, REC->signo, REC->overrun'),
]
PRINT_ID = 5
SYMBOLIC = {"prev_state": None, "reason": {"initial": 0, "wakeup": 1, "start_nice": 2},
            "check": {"tick": 0, "wakeup": 1}}
STATE_BITS = {"S": 1, "D": 2, "T": 4, "t": 8, "X": 0x10, "Z": 0x20, "P": 0x40, "I": 0x80}
FLAG_BITS = {0: ("d", 0x01), 1: ("N", 0x04), 2: ("h", 0x08)}


def layout(fields):
    """[(name, type, offset, size, signed, kind)] after the 8 common bytes."""
    off, out = 8, []
    for name, (ctype, size, signed, kind) in fields:
        out.append((name, ctype, off, size, signed, kind))
        off += size
    return out


def format_file(name, eid, fields, fmt):
    s = "name: %s\nID: %d\nformat:\n" % (name, eid) + COMMON
    for fname, ctype, off, size, signed, kind in layout(fields):
        decl = "char %s[16]" % fname if kind == "s" else "%s %s" % (ctype, fname)
        s += "\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % (decl, off, size, signed)
    return s + "\nprint fmt: %s\n" % fmt


PRINT_FORMAT = ("name: print\nID: %d\nformat:\n" % PRINT_ID + COMMON +
                "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
                "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:1;\n\n"
                'print fmt: "%ps: %s", REC->ip, REC->buf\n')

HEADER_PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
               "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               "\tfield: char data;\toffset:12;\tsize:%d;\tsigned:1;\n" % (PAGE - PAGE_HDR))
HEADER_EVENT = ("# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
                "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")

MARK_IP = 0xc0000100                # kallsyms: tracing_mark_write


def _value(name, text, kind):
    if name in SYMBOLIC:
        if name == "prev_state":
            v = STATE_BITS.get(text[0], 0) if text[0] != "R" else 0
            return v | (0x100 if text.endswith("+") else 0)
        return SYMBOLIC[name][text]
    return int(text, 0)


# text key -> field, where TP_printk names a field differently
TEXT_KEYS = {"sched_process_fork": {"parent_comm": "comm", "parent_pid": "pid"}}


def pack_event(ev, by_name):
    """The binary record of EV (common fields + its fields)."""
    flags = 0
    for i, (ch, bit) in FLAG_BITS.items():
        if ev["flags"][i] == ch:
            flags |= bit
    if ev["name"] == "print":
        buf = ev["fields"]["buf"].encode() + b"\0"
        return struct.pack("<HBBiI", PRINT_ID, flags, 0, ev["pid"], MARK_IP) + buf
    _, name, eid, fields, _ = by_name[ev["name"]]
    rec = bytearray(struct.pack("<HBBi", eid, flags, 0, ev["pid"]))
    keys = TEXT_KEYS.get(name, {})
    for fname, ctype, off, size, signed, kind in layout(fields):
        text = ev["fields"].get(keys.get(fname, fname), "0")
        if kind == "s":
            rec += text.encode()[:15].ljust(16, b"\0")
        else:
            v = _value(fname, text, kind)
            fmt = {4: "i" if signed else "I", 8: "q" if signed else "Q"}[size]
            rec += struct.pack("<" + fmt, v)
    return bytes(rec)


def _event_header(type_len, delta):
    return struct.pack("<I", (type_len & 0x1f) | ((delta & ((1 << TS_BITS) - 1)) << 5))


def pack_record(data, delta):
    """One ring-buffer event: time extend if DELTA needs more than 27 bits."""
    out = b""
    if delta >= 1 << TS_BITS:
        out += _event_header(TYPE_TIME_EXTEND, delta) + struct.pack("<I", delta >> TS_BITS)
        delta = 0
    padded = data + b"\0" * (-len(data) % 4)
    if len(padded) <= 28 * 4:
        return out + _event_header(len(padded) // 4, delta) + padded
    return out + _event_header(0, delta) + struct.pack("<I", len(padded) + 4) + padded


def cpu_pages(records):
    """Pack [(ts, data)] into ring-buffer pages; returns the bytes."""
    pages, cur, base, last = [], b"", None, None
    for ts, data in records:
        if base is None:
            base, last = ts, ts
        rec = pack_record(data, ts - last)
        if len(cur) + len(rec) > PAGE - PAGE_HDR:
            pages.append(struct.pack("<QI", base, len(cur)) + cur.ljust(PAGE - PAGE_HDR, b"\0"))
            cur, base = b"", ts
            rec = pack_record(data, 0)
        cur += rec
        last = ts
    if cur:
        pages.append(struct.pack("<QI", base, len(cur)) + cur.ljust(PAGE - PAGE_HDR, b"\0"))
    return b"".join(pages)


def _sized8(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b


def write(path, events, kallsyms=(), ncpus=1):
    """Write trace.dat for EVENTS (tools/granule/trace/text.py dicts, time order).
    KALLSYMS: [(address, type letter, name)] for %ps (hrtimer functions).
    NCPUS: the CPU sections (at least one more than the highest event CPU)."""
    by_name = {e[1]: e for e in EVENTS}
    out = bytearray(b"\x17\x08\x44tracing6\0")
    out += struct.pack("<BBI", 0, 4, PAGE)
    out += b"header_page\0" + _sized8(HEADER_PAGE)
    out += b"header_event\0" + _sized8(HEADER_EVENT)
    out += struct.pack("<I", 1) + _sized8(PRINT_FORMAT)
    systems = []
    for e in EVENTS:
        if e[0] not in systems:
            systems.append(e[0])
    out += struct.pack("<I", len(systems))
    for sysname in systems:
        evs = [e for e in EVENTS if e[0] == sysname]
        out += sysname.encode() + b"\0" + struct.pack("<I", len(evs))
        for _, name, eid, fields, fmt in evs:
            out += _sized8(format_file(name, eid, fields, fmt))
    syms = [(MARK_IP, "T", "tracing_mark_write")] + list(kallsyms)
    ks = "".join("%08x %s %s\n" % s for s in sorted(syms)).encode()
    out += struct.pack("<I", len(ks)) + ks
    out += struct.pack("<I", 0)                                  # printk formats
    cmdlines = {}
    for ev in events:
        cmdlines[ev["pid"]] = ev["comm"]
        for p, c in (("prev_pid", "prev_comm"), ("next_pid", "next_comm"), ("child_pid", "child_comm")):
            if p in ev["fields"] and c in ev["fields"]:
                cmdlines[int(ev["fields"][p])] = ev["fields"][c]
    cl = "".join("%d %s\n" % (p, "<idle>" if p == 0 else c) for p, c in sorted(cmdlines.items()))
    out += _sized8(cl)
    ncpus = max([ncpus] + [ev["cpu"] + 1 for ev in events])
    out += struct.pack("<I", ncpus) + b"options  \0" + struct.pack("<H", 0) + b"flyrecord\0"
    data = [cpu_pages([(ev["ts"], pack_event(ev, by_name)) for ev in events if ev["cpu"] == cpu])
            for cpu in range(ncpus)]
    offset = len(out) + 16 * ncpus
    offset += -offset % PAGE
    for d in data:                      # whole pages each: every section page-aligned
        out += struct.pack("<QQ", offset, len(d))
        offset += len(d)
    out += b"\0" * (-len(out) % PAGE) + b"".join(data)
    with open(path, "wb") as f:
        f.write(out)
