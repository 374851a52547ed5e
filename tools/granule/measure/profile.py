"""tools/profile-path - instructions per function between two calls of a kernel function.

  tools/profile-path FUNCTION NTH [--from FUNC1] [--span K] [--until FUNC2]
                     [--categories] [--cmdline CMDLINE] [--top N]

Boots CMDLINE (default: run="microbench -s 1") under gdb with QEMU's
one-insn-per-tb (once -singlestep), stops at the NTH call of FUNCTION, turns
on QEMU's exec log (as tools/measure-paths does) and counts every
instruction until FUNCTION is entered K more times (--span, default 1) or,
with --until, until FUNC2 (or the address 0xADDR, which may be a user one)
is first reached (with --from, counting starts at FUNC1's first entry after
that stop instead), charging each to the kernel function that holds its PC
(its own instructions only, not its callees') or to "(user)" below
PAGE_OFFSET. Under -icount one instruction is one virtual ns, so the total
is the cost of one iteration of whatever loop calls FUNCTION: with
microbench, do_fork 10..11 is one fork+exit+wait, sys_execve 5..6 one
fork+execve+exit+wait, pipe_read 300 --span 2 one pipe ping-pong round trip
(two switches), sys_rt_sigtimedwait 50 --from vec_239 --until
sys_timer_settime one timer expiry (the local APIC timer's interrupt) up to
the next arming; arch_idle 30 --from vec_239 --until 0x08047309 (the vDSO's
rdtsc) the same expiry up to the woken thread's clock read. (A gdb stop lets
the icount clock jump to the next timer deadline, so stopping inside a timer
path perturbs it: stop before the timer is armed and start counting with
--from.) docs/FASTPATHS.md quotes its output.

--categories also charges every instruction to the innermost enclosing
call of a function named in CATEGORIES below (a shadow call stack rebuilt
from the log: call/ret/iret and the vector stubs, from the kernel's
disassembly; where a return cannot be matched - a context switch changes
stacks - it starts again from the function the PC is in), so that shared
helpers (update_curr, memcpy, signal_pending) count for their caller:
entry/exit and switch are the generic syscall/interrupt and scheduling
paths, wakeup is try_to_wake_up and the class's enqueue and preemption
check, pipe and timer the paths of kernel/fs/pipe.c and the POSIX timer
and signal code.
"""
import argparse
import bisect
import collections
import re
import sys

from ..trace import execlog
from ..trace.kernel_text import control_transfers, text_symbols

PAGE_OFFSET = 0xC0000000

# Category of a call and everything under it (the innermost named call wins).
CATEGORIES = {
    "entry/exit": ["common_entry", "ret_from_trap", "trap_dispatch", "syscall_dispatch", "do_syscall",
                   "exit_to_caller", "restore_saved_sigmask", "ret_from_bad_user_frame", "__ret_user_gs", "__ret_user_fs",
                   "__ret_user_es", "__ret_user_ds", "__ret_user_iret", "irq_dispatch",
                   "sysenter_entry", "sysenter_exit"],
    "switch": ["schedule", "__schedule", "reap_dead_tasks"],
    "wakeup": ["try_to_wake_up", "wake_up_process"],
    "idle": ["cpu_idle", "arch_idle"],
    "pipe": ["sys_read", "sys_write", "pipe_read", "pipe_write", "pipe_poll", "wake_up_all",
             "wait_sleep", "pipe_wait", "__wake_up_all"],
    "timer/signal": ["apic_tick_irq", "hrtimer_interrupt", "posix_timer_fn", "sys_timer_settime",
                     "sys_rt_sigtimedwait", "send_signal_info", "timer_tick", "do_signal"],
}
CATEGORY_OF = {f: c for c, fs in CATEGORIES.items() for f in fs}
VECTOR = re.compile(r"^vec_\d+$")


class Categorizer:
    """The shadow call stack: a list of [function, return address]."""

    def __init__(self, addrs, names, kinds):
        self.addrs, self.names, self.kinds = addrs, names, kinds
        self.starts = dict(zip(addrs, names))
        self.stack, self.prev = [], None
        self.counts = collections.Counter()
        self.members = collections.defaultdict(collections.Counter)

    def step(self, pc, func):
        kind = self.kinds.get(self.prev) if self.prev is not None else None
        if pc < PAGE_OFFSET:
            self.stack = []
        elif self.prev is None:
            self.stack = [[func, -1]]                   # the first instruction
        elif pc in self.starts and VECTOR.match(self.starts[pc]):
            self.stack.append([func, None])             # an interrupt or trap
        elif kind and kind[0] == "call" and pc != kind[1]:
            self.stack.append([func, kind[1]])
        elif kind and kind[0] == "ret":
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][1] == pc:
                    while i > 0 and self.stack[i - 1][1] == pc:
                        i -= 1                          # and the tail calls' callers
                    del self.stack[i:]
                    break
            else:
                self.stack = [[func, -1]]               # another stack: start from here
        elif kind and kind[0] == "iret":
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][1] is None:
                    del self.stack[i:]
                    break
            else:
                self.stack = [[func, -1]]
        elif pc in self.starts and self.prev is not None:
            if self.stack:                               # a tail call (jmp): the caller's
                self.stack.append([func, self.stack[-1][1]])  # category still holds
            else:
                self.stack = [[func, -1]]
        self.prev = pc
        self.charge(self.category(pc, func), func)

    def category(self, pc, func):
        if pc < PAGE_OFFSET:
            return "(user)"
        for name in [func] + [f for f, _ in reversed(self.stack)]:
            if name in CATEGORY_OF:
                return CATEGORY_OF[name]
            if VECTOR.match(name):
                return "entry/exit"
        return "other"

    def charge(self, category, func):
        self.counts[category] += 1
        self.members[category][func] += 1


def count(stream, addrs, names, start_addr, stop_addr, span, cat):
    counts, seen, total = collections.Counter(), 0, 0
    for raw in stream:
        if not raw.startswith(b"Trace "):
            continue
        pc = int(raw.split(b"[", 1)[1].split(b"/")[1], 16)
        if pc == start_addr and not seen:
            seen = 1
        elif pc == stop_addr and seen:
            seen += 1
            if seen > span:
                break
        if not seen:
            continue
        total += 1
        if pc < PAGE_OFFSET:
            func = "(user)"
        else:
            i = bisect.bisect_right(addrs, pc) - 1
            func = names[i] if i >= 0 else "?"
        counts[func] += 1
        if cat:
            cat.step(pc, func)
    return total, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("function")
    ap.add_argument("nth", type=int)
    ap.add_argument("--from", dest="start", help="start counting at this function's next entry")
    ap.add_argument("--span", type=int, default=1, help="count until FUNCTION's K-th next call")
    ap.add_argument("--until", help="count until this function (or 0xADDRESS) is first reached instead")
    ap.add_argument("--categories", action="store_true", help="also print the totals by category")
    ap.add_argument("--cmdline", default='run="microbench -s 1"')
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    addrs, names = text_symbols()
    for f in [a.function] + [x for x in (a.start, a.until) if x and not x.startswith("0x")]:
        if f not in names:
            sys.exit(f"profile-path: no function {f}")
    if a.span < 1:
        sys.exit("profile-path: --span must be at least 1")
    start_addr = addrs[names.index(a.start or a.function)]
    if a.until and a.until.startswith("0x"):
        stop_addr = int(a.until, 16)        # any address, e.g. the vDSO's rdtsc
    else:
        stop_addr = addrs[names.index(a.until)] if a.until else start_addr
    span = 1 if a.until else a.span
    cat = Categorizer(addrs, names, control_transfers()) if a.categories else None
    r = execlog.read_after(a.cmdline, a.function, a.nth,
                           lambda f: count(f, addrs, names, start_addr, stop_addr, span, cat))
    if not r or not r[0]:
        sys.exit("profile-path: the exec log gave no instruction")
    total, counts = r
    end = f"{a.until} (first entry)" if a.until else f"#{a.nth + a.span}"
    print(f"# tools/profile-path {' '.join(sys.argv[1:])}")
    begin = f"{a.start} (first entry after {a.function} #{a.nth})" if a.start else f"{a.function} #{a.nth}"
    if a.start and not a.until:
        end = f"#{a.span + 1} of {a.start}"
    print(f"{total} instructions from {begin} to {end}")
    print("| instructions | share | function |")
    print("|---:|---:|---|")
    for name, c in counts.most_common(a.top):
        print(f"| {c} | {100.0 * c / total:.1f}% | `{name}` |")
    if cat:
        print()
        print("| instructions | share | category | its largest functions |")
        print("|---:|---:|---|---|")
        for name, c in cat.counts.most_common():
            top = ", ".join(f"`{f}` {n}" for f, n in cat.members[name].most_common(6))
            print(f"| {c} | {100.0 * c / total:.1f}% | {name} | {top} |")
