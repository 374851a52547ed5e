"""tools/start-figure - draw docs/start-rbtree.svg from a real run: the CFS
runqueue at a wakeup and where place_entity() put the waking task.

  tools/start-figure [-o FILE]     boot the default experiment under gdb and write the SVG
  tools/start-figure --check       exit 1 (one line) if docs/start-rbtree.svg differs

gdb (make gdb's held clock) stops in place_entity() for a waking task
(initial == 0) once five tasks are queued, after the load's 40th fork.
The condition reads the arguments from the stack (i386's cdecl at the
function's first instruction, where the breakpoint is: CFS_RQ at 4(%esp),
INITIAL at 12(%esp)); `$rq(0).cfs` in a breakpoint condition failed to
evaluate, and gdb then stops unconditionally: at a fork (initial == 1);
tools/granule.gdb's gr-rq prints the runqueue in rbtree order, and after
`finish` the task's vruntime is where place_entity() put it:
max(old vruntime, min_vruntime - sched_latency / 2) with GENTLE_FAIR_SLEEPERS.
Under -icount the stop is the same on every run, so the SVG is too.
"""
import argparse
import os
import re
import sys

from .. import qemu as gq

OUT = os.path.join(gq.ROOT, "docs", "start-rbtree.svg")
CMDLINE = "run=experiment mode=thread load=kbuild:10 duration=1"
SE_TASK = "((struct task *)((char *)$se - (unsigned long)&((struct task *)0)->se))"
CMDS = ["break do_fork", "ignore 1 39", "continue", "delete 1",
        "break *place_entity if *(int *)($esp + 12) == 0 && "
        "((struct cfs_rq *)*(unsigned int *)($esp + 4))->nr_running >= 5", "continue",
        "set $se = se", "print $se->vruntime", f"print {SE_TASK}->pid", f"print {SE_TASK}->comm",
        "print sysctl_sched_latency", "gr-rq", "finish", "print $se->vruntime"]
ROW = re.compile(r"^  (curr  |\[\s*\d+\]) +pid +(\d+) tgid +\d+ (\S+) +weight +\d+ vruntime +(\d+) key +([+-]\d+)")


def capture():
    s = gq.gdb_session(CMDLINE, [a for c in CMDS for a in ("-ex", c)], timeout=300, hold_clock=True)
    out = s.gdb_output
    vals = re.findall(r"^\$\d+ = (.*)$", out, re.M)
    rq = re.search(r"^rq: .* min_vruntime (\d+)$", out, re.M)
    if s.timed_out or len(vals) != 5 or not rq:
        sys.exit("tools/start-figure: the gdb session did not stop in place_entity as expected:\n" + out[-1500:])
    rows = [ROW.match(l) for l in out.splitlines() if ROW.match(l)]
    return {"old": int(vals[0]), "pid": int(vals[1]), "comm": re.sub(r'^"(.*?)(\\000)*".*$', r"\1", vals[2]),
            "latency": int(vals[3]), "placed": int(vals[4]), "min": int(rq.group(1)),
            "tasks": [(r.group(1).strip(), int(r.group(2)), r.group(3), int(r.group(5))) for r in rows]}


def svg(d):
    mv, lat = d["min"], d["latency"]
    floor = -lat // 2                                   # min_vruntime - sched_latency / 2
    keys = [k for *_, k in d["tasks"]] + [d["old"] - mv, d["placed"] - mv, floor]
    lo, hi = min(keys) - 200000, max(keys) + 200000
    W, H, L, R = 900, 330, 60, 40
    x = lambda k: L + (k - lo) * (W - L - R) / (hi - lo)  # noqa: E731
    ms = lambda ns: f"{ns / 1e6:+.3f} ms"  # noqa: E731
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
         f'font-size="11">', f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14">The CFS runqueue when '
         f'{d["comm"]}[{d["pid"]}] wakes: rbtree keys (vruntime - min_vruntime)</text>',
         f'<line x1="{L}" y1="250" x2="{W - R}" y2="250" stroke="black"/>']
    for t in range(int(lo // 1000000), int(hi // 1000000) + 1):
        if lo <= t * 1e6 <= hi:
            o.append(f'<line x1="{x(t * 1e6):.1f}" y1="247" x2="{x(t * 1e6):.1f}" y2="253" stroke="black"/>'
                     f'<text x="{x(t * 1e6):.1f}" y="266" text-anchor="middle">{t} ms</text>')
    o.append(f'<line x1="{x(0):.1f}" y1="40" x2="{x(0):.1f}" y2="250" stroke="#d03020" stroke-width="2"/>'
             f'<text x="{x(0) + 4:.1f}" y="52" fill="#d03020">min_vruntime = {mv}</text>')
    o.append(f'<line x1="{x(floor):.1f}" y1="60" x2="{x(floor):.1f}" y2="250" stroke="#808080" '
             f'stroke-dasharray="4 3"/><text x="{x(floor) + 4:.1f}" y="72" fill="#606060">'
             f'min_vruntime - sched_latency/2 ({ms(floor)}): the sleeper credit\'s limit</text>')
    queued = [t for t in d["tasks"] if t[0] != "curr"]
    for i, (slot, pid, comm, key) in enumerate(d["tasks"]):
        y = 230 - 22 * (i % 6) if slot != "curr" else 100
        fill = "#3060c0" if slot != "curr" else "#30a040"
        label = f"{comm}[{pid}]" + (" (curr)" if slot == "curr" else " leftmost: next" if
                                    queued and (slot, pid, comm, key) == queued[0] else "")
        o.append(f'<circle cx="{x(key):.1f}" cy="{y}" r="6" fill="{fill}"/>'
                 f'<text x="{x(key) + 9:.1f}" y="{y + 4}">{label}</text>')
    old, placed = d["old"] - mv, d["placed"] - mv
    o.append(f'<circle cx="{x(old):.1f}" cy="140" r="6" fill="none" stroke="#d03020"/>'
             f'<text x="{x(old) + 9:.1f}" y="128">{d["comm"]}[{d["pid"]}] asleep: {ms(old)}</text>')
    o.append(f'<line x1="{x(old):.1f}" y1="146" x2="{x(placed):.1f}" y2="244" stroke="#d03020" '
             f'marker-end="url(#a)"/><defs><marker id="a" markerWidth="8" markerHeight="8" refX="6" '
             f'refY="3" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#d03020"/></marker></defs>')
    o.append(f'<text x="{L}" y="292">place_entity(initial=0): vruntime = max({ms(old)}, {ms(floor)}) = '
             f'{ms(placed)} after min_vruntime</text>')
    o.append(f'<text x="{L}" y="310" fill="#606060">From a real boot ({CMDLINE}), stopped by gdb; '
             'drawn by tools/start-figure.</text></svg>')
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default=OUT)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    text = svg(capture())
    if a.check:
        with open(OUT) as f:
            if f.read() != text:
                sys.exit("tools/start-figure: docs/start-rbtree.svg differs from a fresh run: run tools/start-figure")
        return
    with open(a.output, "w") as f:
        f.write(text)
