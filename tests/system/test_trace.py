"""The event tracer (trace_event=, kernel/trace/) and tools/trace.

- Tracing off leaves nothing behind: the tracer's part of the image goes back
  to the frame allocator (exactly its frames) and nothing is recorded.
- The dump is ftrace's trace file; trace-cmd reads tools/trace's trace.dat
  and reports the same events (times, pids, every field) as the dump.
- The trace of a scheduling scenario obeys the scheduler's invariants.
- A full buffer drops the oldest events, counts them, and the dump stays whole.
- Bad values of the knobs are refused with one line each.
- KernelShark (under Xvfb, tools/trace-screenshot) opens trace.dat without an error.
- /sys/kernel/debug/tracing from busybox's shell: set_event, tracing_on, trace
  (ftrace's layout, emptied by `echo > trace`), trace_marker, buffer_size_kb
  (a bad value refused), available_events; timer events turned on at run time;
  no such directory without trace_event=.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import boot, check_clean

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
from granule import qemu as gq
from granule.trace import sched as trace_sched
from granule.trace import text as trace_text

SCENARIO = ("trace_event=sched:*,timer:* trace_buf_size=4M sched_debug=end "
            "run=experiment mode=thread load=kbuild:4 duration=1")


def trace_region_frames():
    """Frames of the image's .trace part (__trace_phys_start .. __trace_phys_end)."""
    out = subprocess.run(["nm", os.path.join(ROOT, "build", "granule.elf")], capture_output=True,
                         text=True, check=True).stdout
    sym = {n: int(a, 16) for a, _, n in (l.split() for l in out.splitlines() if len(l.split()) == 3)}
    start, end = sym["__trace_phys_start"], sym["__trace_phys_end"]
    assert start % 4096 == 0 and end > start
    return (end - start + 4095) // 4096


def free_frames(run):
    m = run.find(r"^Memory: \d+K free in (\d+) frames")
    assert m, run.output[-2000:]
    return int(m.group(1))


def test_tracing_off_hands_the_tracer_back_and_records_nothing():
    """With tracing off the tracer is not there at all: its part of the image is free memory
    (exactly its frames, against a traced boot) and nothing is recorded or dumped.  No hook
    sits on any path (events come from breakpoints patched in only when on), so this is
    what keeps every RESULT line of an untraced run the same as a kernel without a tracer."""
    off, on = boot("run=hello"), boot("trace_event=sched:sched_switch run=hello")
    check_clean(off)
    check_clean(on)
    assert "granule trace begin" not in off.output and "granule trace begin" in on.output
    assert free_frames(off) - free_frames(on) == trace_region_frames()


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    r = boot(SCENARIO, timeout=900)
    check_clean(r)
    # every probed function's first instruction can run out of line (kprobes_insn.h)
    assert not r.find(r"^trace: cannot probe"), r.output[-2000:]
    out = tmp_path_factory.mktemp("trace")
    log = out / "serial.log"
    log.write_text(r.output)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "trace"), str(log), "-o", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return r, trace_text.find_dump(r.output), out


def test_dump_is_ftrace_text(scenario):
    r, dump, out = scenario
    assert dump.header[0] == "# tracer: nop"
    assert dump.written == dump.entries + dump.lost
    assert dump.lost == 0 and dump.entries > 1000
    names = {e["name"] for e in dump.events}
    for n in ("sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_process_fork",
              "sched_process_exit", "sched_stat_runtime", "sched_place", "sched_preempt_check",
              "hrtimer_expire_entry", "hrtimer_expire_exit", "posix_timer_expire"):
        assert n in names, n
    ts = [e["ts"] for e in dump.events]
    assert ts == sorted(ts)
    txt = (out / "trace.txt").read_text()
    assert "function=posix_timer_fn" in txt and "function=tick_sched_timer" in txt


RAW_RE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d{3})\]\s+(?P<secs>\d+)\.(?P<usecs>\d{6}): "
                    r"(?P<name>\w+):\s+(?P<rest>.*)$")


@pytest.mark.skipif(not shutil.which("trace-cmd"), reason="trace-cmd not installed (tools/deps)")
def test_trace_cmd_reads_the_same_events(scenario):
    r, dump, out = scenario
    p = subprocess.run(["trace-cmd", "report", "-R", "-i", str(out / "trace.dat")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    got = [RAW_RE.match(l) for l in p.stdout.splitlines() if RAW_RE.match(l)]
    assert len(got) == len(dump.events)
    states = {"R": 0, "S": 1, "D": 2, "T": 4, "X": 0x10, "Z": 0x20}
    symbolic = {"reason": {"initial": 0, "wakeup": 1, "start_nice": 2}, "check": {"tick": 0, "wakeup": 1}}
    for m, ev in zip(got, dump.events):
        assert int(m["pid"]) == ev["pid"]
        assert int(m["secs"]) * 10**9 + int(m["usecs"]) * 1000 == ev["ts"]
        assert m["name"] == ev["name"]
        raw = dict(re.findall(r"(\w+)=(\S*)", m["rest"]))
        if ev["name"] == "print":
            assert ev["fields"]["buf"] in m["rest"]
            continue
        for k, v in ev["fields"].items():
            key = {"comm": "parent_comm", "pid": "parent_pid"}.get(k, k) \
                if ev["name"] == "sched_process_fork" else k
            if k == "prev_state":
                want = states[v[0]] | (0x100 if v.endswith("+") else 0)
                assert int(raw[key], 0) == want
            elif k in symbolic:
                assert int(raw[key]) == symbolic[k][v]
            elif k in ("hrtimer", "function"):
                continue          # pointers: trace-cmd prints them its own way
            elif v.lstrip("-").isdigit():
                assert int(raw[key]) == int(v), (k, m.group(0))
            else:
                assert raw[key] == v, (k, m.group(0))


def test_switch_chain_and_wakeups(scenario):
    """Every switch's prev is the previous switch's next; a task that went
    to sleep (S/D) is woken before it is switched in again."""
    _, dump, _ = scenario
    prev_next, asleep = None, set()
    switches = 0
    for e in dump.events:
        f = e["fields"]
        if e["name"] == "sched_switch":
            switches += 1
            if prev_next is not None:
                assert int(f["prev_pid"]) == prev_next, e["line"]
            if f["prev_state"][0] in "SD":
                asleep.add(int(f["prev_pid"]))
            assert int(f["next_pid"]) not in asleep, e["line"]
            prev_next = int(f["next_pid"])
        elif e["name"] in ("sched_wakeup", "sched_wakeup_new"):
            asleep.discard(int(f["pid"]))
    assert switches > 100


def test_runtime_sums_match_sum_exec_runtime(scenario):
    """sched_stat_runtime adds up to each task's sum_exec_runtime (sched_debug=end):
    exactly for an exited task, whose record is taken on its last switch-out
    before the dequeue's final update_curr (the last event); no more for a
    live one (its table is printed after the trace stopped)."""
    r, dump, _ = scenario
    sums, last = {}, {}
    for e in dump.events:
        if e["name"] == "sched_stat_runtime":
            pid, rt = int(e["fields"]["pid"]), int(e["fields"]["runtime"])
            sums[pid] = sums.get(pid, 0) + rt
            last[pid] = rt
    rows = re.findall(r"^\s*(\S+)\s+(\d+)\s+\d+ ([RQSX])\s+\d+\s+\d+\s+\d+\s+(\d+)\.(\d{6})", r.output, re.M)
    assert len(rows) > 10
    exited = 0
    for comm, pid, state, ms, frac in rows:
        pid, ns = int(pid), int(ms) * 10**6 + int(frac)
        if state == "X":
            exited += 1
            assert sums[pid] - last[pid] == ns, (comm, pid)
        else:
            assert sums.get(pid, 0) <= ns, (comm, pid)
    assert exited > 10


def test_full_buffer_drops_oldest():
    r = boot("trace_event=sched:*,timer:* trace_buf_size=4K run=hello", timeout=300)
    check_clean(r)
    dump = trace_text.find_dump(r.output)     # raises if a line is damaged
    assert dump.lost > 0
    assert dump.written == dump.entries + dump.lost
    # the newest survive: the last event is hello's exit switch
    assert dump.events[-1]["name"] == "sched_switch"
    assert dump.events[-1]["fields"]["prev_comm"] == "hello"
    assert r.has_line("trace: %d events dumped on ttyS0 (%d lost)" % (dump.entries, dump.lost))


def test_markers_from_wakeup_latency():
    r = boot('trace_event=sched:sched_switch run="wakeup-latency -d 1 -q"', timeout=300)
    check_clean(r)
    dump = trace_text.find_dump(r.output)
    marks = [e["fields"]["buf"] for e in dump.events if e["name"] == "print"]
    assert len(marks) == 100
    assert marks[0].startswith("wakeup-latency: sample=0 expiry=")
    assert all(" latency=" in m for m in marks)


def test_bad_knob_values():
    r = boot("trace_event=sched:nope trace_buf_size=12Q trace_buf_size=65M run=hello", timeout=120)
    check_clean(r)
    assert r.has_line('cmdline: trace_event=sched:nope: invalid (expected a list of SYSTEM:EVENT '
                      '(sched, timer; EVENT or *)); keeping ""')
    for v in ("12Q", "65M"):
        assert r.has_line("cmdline: trace_buf_size=%s: invalid (expected a size 4096..67108864 bytes, "
                          "with an optional K or M suffix); keeping 12582912" % v)
    assert "granule trace begin" not in r.output


def test_tp_printk():
    r = boot("trace_event=sched:sched_switch tp_printk run=hello", timeout=120)
    check_clean(r)
    printed = [l for l in r.lines if l.startswith("sched_switch: prev_comm=")]
    dump = trace_text.find_dump(r.output)
    assert len(printed) == dump.entries > 2
    assert printed[-1] == "sched_switch: " + dump.events[-1]["text"]


def test_attribution_names_start_debit(scenario):
    """Under START_DEBIT (the default preset) the worst sample's thread was
    placed one vslice right of min_vruntime, and every hog that ran before
    it had started left of it."""
    _, dump, out = scenario
    text = (out / "latency.txt").read_text()
    worst = text.split("\n\n")[1]
    assert "(fork: START_DEBIT vslice)" in worst
    rows = [l.split() for l in worst.splitlines()[3:]]
    hogs = [r for r in rows if r[0].startswith("kbuild-load[")]
    assert len(hogs) >= 2
    assert all(float(r[2]) < 0 for r in hogs)


def test_attribution_names_no_start_debit(tmp_path):
    """The same scenario with NO_START_DEBIT: every sample's thread starts
    at min_vruntime, and a typical sample waits only for the task that
    was running (one line above the helper's)."""
    r = boot(SCENARIO.replace("sched_debug=end", "sched_features=NO_START_DEBIT"), timeout=900)
    check_clean(r)
    (tmp_path / "serial.log").write_text(r.output)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "trace"), str(tmp_path / "serial.log"),
                        "-o", str(tmp_path), "--worst", "100"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    blocks = (tmp_path / "latency.txt").read_text().strip().split("\n\n")[1:]
    assert len(blocks) == 100
    # The timer may fire once more after the 100 measured expiries, before the
    # program deletes it: the helper then takes that signal and forks nothing,
    # so that sample is the helper's own wakeup.  Only the run's last expiry
    # may be such a sample.
    expiry = [float(b.split("expiry ", 1)[1].split()[0]) for b in blocks]
    for b, e in zip(blocks, expiry):
        if "(fork:" not in b and e == max(expiry):
            continue
        assert "(fork: no debit)" in b and "+0.000 ms" in b.splitlines()[1], b
    hogs = [len([l for l in b.splitlines()[3:] if "kbuild-load[" in l and float(l.split()[1]) > 0.1])
            for b in blocks]
    assert sorted(hogs)[len(hogs) // 2] == 1


@pytest.mark.skipif(not all(shutil.which(t) for t in ("kernelshark", "xvfb-run", "import", "xwininfo")),
                    reason="kernelshark / Xvfb / ImageMagick not installed (tools/deps)")
def test_kernelshark_opens_trace_dat(scenario, tmp_path):
    """KernelShark 2.x loads tools/trace's trace.dat without a complaint and shows its window;
    tools/trace-screenshot captures it (and fails on a load error or no window)."""
    _, _, out = scenario
    png = tmp_path / "ks.png"
    p = subprocess.run([os.path.join(ROOT, "tools", "trace-screenshot"), str(out / "trace.dat"), str(png)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Loading" in p.stdout and "trace.dat" in p.stdout, p.stdout
    size = subprocess.run(["identify", "-format", "%w %h", str(png)], capture_output=True, text=True,
                          check=True).stdout.split()
    assert int(size[0]) >= 600 and int(size[1]) >= 300, size
    # A truncated trace.dat: KernelShark says ERROR, and the capture fails rather than show it.
    bad = tmp_path / "bad.dat"
    bad.write_bytes((out / "trace.dat").read_bytes()[:5000])
    p = subprocess.run([os.path.join(ROOT, "tools", "trace-screenshot"), str(bad), str(tmp_path / "bad.png")],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ, TIMEOUT="15"))
    assert p.returncode != 0 and "ERROR" in p.stderr, p.stdout + p.stderr


# ---- /sys/kernel/debug/tracing (kernel/trace/tracefs.c), from busybox's shell ----

TRACING = "/sys/kernel/debug/tracing"
LINE_RE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[000\] [dNh.]{5}\s+\d+\.\d{6}: (?P<name>\w+): ")


def have_busybox():
    from test_busybox import have_busybox as hb
    return hb()


@pytest.fixture
def sh():
    """The login shell on a kernel that kept the tracer (trace_event= with no events)."""
    from test_shell import PROMPT
    with gq.Console("trace_event=", timeout=60) as c:
        c.expect(PROMPT)
        yield c


def sh_command(c, line):
    """test_shell's command(), printk's timestamps removed (the kernel's
    one-line refusals come through the console); LINE must fit the line
    editor's 80 columns, which wraps longer ones."""
    from test_shell import PROMPT, command
    assert len(PROMPT + line) < 80, line
    return "".join(gq.TIMESTAMP.sub("", l) for l in command(c, line).splitlines(True))


def trace_events(text):
    """(header lines, [(name, line)]) of a trace file's text; every line is one or the other."""
    head, events = [], []
    for l in text.splitlines():
        if l.startswith("#"):
            head.append(l)
        else:
            m = LINE_RE.match(l)
            assert m, l
            events.append((m.group("name"), l))
    return head, events


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_tracing_files_from_the_shell(sh):
    sh_command(sh, f"cd {TRACING}")
    assert sh_command(sh, "ls -1") == ("available_events\nbuffer_size_kb\nbuffer_total_size_kb\n"
                                       "per_cpu\nset_event\ntrace\ntrace_marker\ntracing_on\n")
    assert sh_command(sh, "cat set_event; cat tracing_on; cat buffer_size_kb") == "1\n12288\n"
    # one CPU: its buffer is the total, and per_cpu/ has its directory alone
    assert sh_command(sh, "cat buffer_total_size_kb; ls per_cpu") == "12288\ncpu0\n"
    assert "sched:sched_switch\n" in sh_command(sh, "cat available_events")
    # One event, then the shell's own switches, and a marker.
    assert sh_command(sh, "echo sched:sched_switch > set_event; cat set_event") == "sched:sched_switch\n"
    sh_command(sh, "echo 1 > tracing_on; echo hello from the shell > trace_marker")
    sh_command(sh, "sleep 0")
    head, events = trace_events(sh_command(sh, "cat trace"))
    assert head[0] == "# tracer: nop" and head[-2].startswith("#           TASK-PID     CPU#"), head
    m = re.match(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)   #P:1$", head[2])
    assert m and int(m.group(1)) == int(m.group(2)) == len(events), (head, len(events))
    names = [n for n, _ in events]
    assert names.count("tracing_mark_write") == 1 and set(names) == {"sched_switch", "tracing_mark_write"}
    mark = [l for n, l in events if n == "tracing_mark_write"][0]
    assert mark.endswith(": tracing_mark_write: hello from the shell") and " busybox-2 " in " " + mark
    assert names.count("sched_switch") >= 2     # sleep's fork and exit at least
    # tracing_on 0: nothing more is recorded, the buffer stays; markers are refused.
    sh_command(sh, "echo 0 > tracing_on")
    n1 = len(trace_events(sh_command(sh, "cat trace"))[1])
    assert sh_command(sh, "echo x > trace_marker; echo $?") == "sh: write error: Bad file descriptor\n1\n"
    sh_command(sh, "sleep 0")
    assert len(trace_events(sh_command(sh, "cat trace"))[1]) == n1 >= len(events)
    # echo > trace empties it; ! disables; echo > set_event clears; sched:* enables the system.
    _, ev = trace_events(sh_command(sh, "echo > trace; cat trace"))
    assert ev == [] and "entries-written: 0/0 " in sh_command(sh, "cat trace")
    sh_command(sh, "echo sched:sched_wakeup >> set_event")
    assert sh_command(sh, "cat set_event") == "sched:sched_switch\nsched:sched_wakeup\n"
    sh_command(sh, "echo !sched:sched_switch >> set_event")
    assert sh_command(sh, "cat set_event") == "sched:sched_wakeup\n"
    assert sh_command(sh, "echo > set_event; cat set_event") == ""
    sched = sh_command(sh, "echo sched:* > set_event; cat set_event").split()
    assert len(sched) == 8 and all(s.startswith("sched:") for s in sched), sched
    out = sh_command(sh, "echo timer:nope > set_event; cat set_event")
    assert out.endswith("names no event (expected SYSTEM:EVENT, SYSTEM:*, EVENT or *, ! to disable: "
                        "see available_events)\nsh: write error: Invalid argument\n"), out    # O_TRUNC cleared


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_buffer_size_kb_refuses_a_bad_value(sh):
    sh_command(sh, f"cd {TRACING}")
    out = sh_command(sh, "echo 70000 > buffer_size_kb; cat buffer_size_kb")
    assert out.endswith("tracing: buffer_size_kb=70000: out of range (expected 4..65536); keeping 12288\n"
                        "sh: write error: Invalid argument\n12288\n"), out
    out = sh_command(sh, "echo 64k > buffer_size_kb; echo 3 > buffer_size_kb")
    out += sh_command(sh, "cat buffer_size_kb")
    assert "tracing: buffer_size_kb=64k: invalid (expected a size in KiB, 4..65536); keeping 12288\n" in out
    assert "buffer_size_kb=3: out of range" in out and out.endswith("12288\n"), out
    # tracing_on takes any decimal number, as Linux's: 7 is on, "on" is refused and kept.
    out = sh_command(sh, "echo 7 > tracing_on; cat tracing_on")
    out += sh_command(sh, "echo on > tracing_on; cat tracing_on")
    assert out == ("1\ntracing: tracing_on=on: invalid (expected a decimal number: 0 off, any other "
                   "on); keeping 1\nsh: write error: Invalid argument\n1\n"), out
    # A good one: the new size, an empty buffer that records again.
    sh_command(sh, "echo sched:sched_switch > set_event; sleep 0")
    assert sh_command(sh, "echo 4 > buffer_size_kb; cat buffer_size_kb") == "4\n"
    head, events = trace_events(sh_command(sh, "sleep 0; cat trace"))
    assert events and all(n == "sched_switch" for n, _ in events), events


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_refused_writes_are_rate_limited():
    # A loop of bad writes is refused every time (EINVAL), but its lines go through
    # printk_ratelimit(): 10 in 5 s of kernel time, then, after the interval,
    # "FUNC: N callbacks suppressed" before the next one (Linux's own trace files
    # print nothing at all).
    loop = ("for i in 0 1 2 3 4 5 6 7 8 9; do echo on > tracing_on; echo 64k > buffer_size_kb; "
            "echo nope > set_event; done")
    r = boot(f'trace_event=sched:sched_switch run="busybox sh -c \'cd {TRACING}; {loop}; sleep 6; '
             f'echo again > tracing_on; echo status $?\'"')
    check_clean(r)
    refused = [l for l in r.lines if re.search(r"tracing: (tracing_on|buffer_size_kb|set_event)", l)]
    errors = [l for l in r.lines if l.endswith("write error: Invalid argument")]
    assert len(errors) == 31 and r.has_line("status 1"), r.output[-3000:]
    assert len(refused) == 11, "\n".join(refused)
    assert re.search(r"\] \w+: 20 callbacks suppressed$", r.output, re.M), r.output[-2000:]
    assert refused[-1].endswith("tracing: tracing_on=again: invalid (expected a decimal number: 0 off, "
                                "any other on); keeping 1"), refused[-1]


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_timer_events_turned_on_at_run_time_see_the_tick():
    # Booted with sched events only: the tick's callback was found at boot,
    # so timer:* from set_event records its expiries.
    r = boot(f'trace_event=sched:sched_switch run="busybox sh -c \'cd {TRACING}; echo timer:hrtimer_expire_entry '
             f'> set_event; sleep 0; echo > set_event; cat trace\'"')
    check_clean(r)
    syms = subprocess.run(["nm", os.path.join(ROOT, "build", "granule.elf")], capture_output=True,
                          text=True, check=True).stdout
    tick = int(re.search(r"^([0-9a-f]+) t tick_sched_timer$", syms, re.M).group(1), 16)
    fns = [int(m.group(1), 16) for m in re.finditer(r"hrtimer_expire_entry: hrtimer=0x[0-9a-f]+ "
                                                    r"function=0x([0-9a-f]+) ", r.output)]
    assert fns and tick in fns, (hex(tick), fns[:5])


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_no_tracing_directory_without_trace_event():
    r = boot(f'run="busybox ls /sys/kernel/debug; busybox cat {TRACING}/set_event"')
    check_clean(r, status=1)
    assert r.has_line("sched_features")
    assert r.has_line(f"cat: can't open '{TRACING}/set_event': No such file or directory")


def run_trace(tmp_path, cmdline, timeout=1200):
    """tools/trace run -- CMDLINE into TMP_PATH/out: (stdout, latency.txt's first line)."""
    out = tmp_path / "out"
    p = subprocess.run([os.path.join(ROOT, "tools", "trace"), "run", "-o", str(out), "--", cmdline],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    text = p.stdout.decode()
    assert p.returncode == 0, text[-3000:]
    with open(out / "latency.txt") as f:
        return text, f.readline().rstrip("\n")


def test_trace_says_how_many_samples_it_does_not_hold(tmp_path):
    # A 1-s experiment (100 samples) into a 1 MiB buffer: the oldest
    # samples are lost, and latency.txt and the verdict count them against
    # the program's own RESULT line.
    text, head = run_trace(tmp_path, "trace_buf_size=1M run=experiment mode=thread load=kbuild:10 "
                                     "duration=1")
    m = re.match(r"^wakeup latency attribution: 100 samples, (\d+) not traced, the worst 10$", head)
    assert m, head
    missing = int(m.group(1))
    traced = trace_sched.Sched(trace_text.find_dump(open(tmp_path / "out" / "serial.log").read())
                               .events).samples()
    assert missing == 100 - len(traced) and 0 < missing < 100, (missing, len(traced))
    assert f"tools/trace: 100 samples, {missing} not traced. " in text, text[-2000:]
    assert "The buffer lost its " in text


def test_trace_of_the_default_experiment_loses_nothing(tmp_path):
    # make trace's default: the 10-s experiment (1000 samples) at the
    # default buffer size, every event kept; the verdict is granule/trace/worst.py's.
    text, head = run_trace(tmp_path, "run=experiment mode=thread load=kbuild:10 duration=10")
    assert head == "wakeup latency attribution: 1000 samples, all traced, the worst 10", head
    m = re.search(r"^tools/trace: (\d+) events \((\d+) lost to overflow\)", text, re.M)
    assert m and int(m.group(1)) > 50000 and m.group(2) == "0", text[-2000:]
    assert "tools/trace: 1000 samples, all traced. " in text
    assert "The trace lost no event" in text


def test_trace_run_without_a_kernel_builds_it_or_says_so(tmp_path):
    """In a tree with no build/granule.elf, `tools/trace run` first runs make all,
    and says so; when that fails it stops with one line, not a parse error."""
    shutil.copytree(os.path.join(ROOT, "tools"), tmp_path / "tools",
                    ignore=shutil.ignore_patterns("__pycache__", "engine"))
    (tmp_path / "Makefile").write_text("all:\n\t@echo no toolchain here; false\n")
    run = subprocess.run([str(tmp_path / "tools" / "trace"), "run", "-o", str(tmp_path / "out"),
                          "--", "run=hello"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "tools/trace: no kernel at build/granule.elf yet: building it (make all)" in run.stdout
    assert run.stderr.strip().endswith(
        "tools/trace: make all failed (above): the kernel must build before it is traced"), run.stderr
    assert "trace_event=?" not in run.stdout + run.stderr


# ---- several CPUs: a buffer per CPU, as ftrace's ----

SMP_RUN = ('trace_event=sched:sched_switch run="busybox sh -c \'busybox taskset 2 spin -w 0 -t 30 -q 0; '
           'echo PERCPU; cat /sys/kernel/debug/tracing/per_cpu/cpu1/trace; echo PERCPU; '
           'cat /sys/kernel/debug/tracing/buffer_total_size_kb\'"')


@pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")
def test_trace_per_cpu_buffers_at_two_cpus(tmp_path):
    """At -smp 2 each CPU records into its own buffer: a task pinned to CPU 1 (taskset 2) has
    its sched_switch lines marked [001], CPU 0's are [000]; the dump merges the two buffers by
    time (timestamps never go back); per_cpu/cpu1/trace holds CPU 1's lines only; the header
    counts both buffers and says #P:2; trace-cmd reads tools/trace's trace.dat as two CPUs."""
    r = boot(SMP_RUN, smp=2, timeout=300)
    check_clean(r)
    dump = trace_text.find_dump(r.output)
    cpus = [ev["cpu"] for ev in dump.events]
    assert set(cpus) == {0, 1}, r.output[-2000:]
    ts = [ev["ts"] for ev in dump.events]
    assert ts == sorted(ts)
    assert dump.ncpus == 2 and dump.entries == dump.written == len(dump.events)
    spin = [ev for ev in dump.events if "spin" in (ev["fields"].get("prev_comm"), ev["fields"].get("next_comm"))]
    assert spin and {ev["cpu"] for ev in spin} == {1}, [ev["line"] for ev in spin]
    # per_cpu/cpu1/trace, read while the run went on: CPU 1's lines, each one in the dump too
    text = r.output.replace("\r", "").split("PERCPU\n")[1]
    head, lines = [l for l in text.splitlines() if l.startswith("#")], \
        [trace_text.parse_line(l) for l in text.splitlines() if not l.startswith("#")]
    assert all(lines) and lines and {ev["cpu"] for ev in lines} == {1}, text[:2000]
    m = re.match(r"^# entries-in-buffer/entries-written: (\d+)/(\d+)   #P:2$", head[2])
    assert m and int(m.group(1)) == len(lines), head
    assert {ev["line"] for ev in lines} <= {ev["line"] for ev in dump.events}
    assert r.find(r"^24576$"), "buffer_total_size_kb: two CPUs' 12288"
    # trace-cmd: one section per CPU, every event on its CPU
    log = tmp_path / "serial.log"
    log.write_text(r.output)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "trace"), str(log), "-o", str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    p = subprocess.run(["trace-cmd", "report", "-R", "-i", str(tmp_path / "trace.dat")],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.startswith("cpus=2\n"), p.stderr + p.stdout[:200]
    got = [(int(m["cpu"]), int(m["pid"]), int(m["secs"]) * 10**9 + int(m["usecs"]) * 1000)
           for m in map(RAW_RE.match, p.stdout.splitlines()) if m]
    assert sorted(got) == sorted((ev["cpu"], ev["pid"], ev["ts"]) for ev in dump.events)
