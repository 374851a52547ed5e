# tools/granule.gdb - gdb helpers for Granule (loaded by `make gdb`).
#
#   make gdb [CMDLINE='...']      QEMU paused at the first instruction, gdb attached
#   (gdb) break scheduler_tick
#   (gdb) continue
#   (gdb) gr-current              the running task: pid, tgid, comm, state, vruntime
#   (gdb) gr-rq                   the CFS runqueue: curr, then every queued entity in
#                                 rbtree order (leftmost first) with its vruntime and
#                                 its key vruntime - min_vruntime; next/last buddies
#   (gdb) gr-min-vruntime         cfs_rq->min_vruntime
#   (gdb) print $rq(1).nr_running  $rq(CPU): that CPU's struct rq (the runqueues are
#                                 per-CPU variables: no plain symbol names one)
#
# The kernel symbols come from build/granule-debug.elf, the booted
# build/granule.elf plus DWARF (same loadable bytes).  Time under gdb: the
# guest's -icount clock counts instructions, but each stop lets QEMU warp it
# to the next pending virtual timer.  make gdb boots with gdb_clock=1, whose
# PIT guard (IRQ masked) keeps that timer under 0.1 ms ahead: a stop moves
# the clock by less than 0.1 ms, scheduler_tick breaks see rq->clock advance
# one tick each, and `break scheduler_tick if $rq(0).nr_running >= 6`
# works (docs/ARCHITECTURE.md, "Watching it in a debugger").
#   make gdb GDB_CMDS=file        gdb runs the file's commands first.
# build/granule.asm is the disassembly with source.

set architecture i386
set confirm off
set pagination off
set print pretty on

python
import gdb


def _offset(struct, member):
    """offsetof(struct STRUCT, MEMBER) from the DWARF types."""
    return int(gdb.parse_and_eval(f"(unsigned long)&((struct {struct} *)0)->{member}"))


def _container(ptr, struct, member):
    """Linux's container_of(ptr, struct STRUCT, MEMBER)."""
    addr = int(ptr) - _offset(struct, member)
    return gdb.Value(addr).cast(gdb.lookup_type("struct " + struct).pointer())


def _task_of_se(se):
    return _container(se, "task", "se")


def _s64(x):
    """A u64 difference as the kernel's (s64) cast sees it."""
    return (x + (1 << 63)) % (1 << 64) - (1 << 63)


def _describe(task, min_vruntime):
    se = task["se"]
    vr = int(se["vruntime"])
    return (f"pid {int(task['pid']):4d} tgid {int(task['tgid']):4d} "
            f"{task['comm'].string():<16s} weight {int(se['load']['weight']):6d} "
            f"vruntime {vr:15d} key {_s64(vr - min_vruntime):+12d} "
            f"sum_exec {int(se['sum_exec_runtime']):13d}")


def _rb_next(node):
    """In-order successor (Linux's rb_next), parents as plain pointers."""
    if int(node["rb_right"]):
        node = node["rb_right"]
        while int(node["rb_left"]):
            node = node["rb_left"]
        return node
    parent = node["rb_parent"]
    while int(parent) and int(node) == int(parent["rb_right"]):
        node, parent = parent, parent["rb_parent"]
    return parent


def _cpu():
    """The CPU gdb stopped on: QEMU's gdb stub shows each vCPU as a
    thread, numbered from 1 in CPU order."""
    thread = gdb.selected_thread()
    return thread.num - 1 if thread else 0


def _rq(cpu):
    """CPU's struct rq: the per-CPU runqueues (kernel/sched/core.c) at the
    template's address plus that CPU's __per_cpu_offset."""
    return gdb.parse_and_eval(f"*(struct rq *)((char *)&runqueues + __per_cpu_offset[{cpu}])")


class RqFunction(gdb.Function):
    """$rq(CPU): CPU's struct rq (CPU 0 without an argument)."""

    def __init__(self):
        super().__init__("rq")

    def invoke(self, cpu=None):
        return _rq(int(cpu) if cpu is not None else 0)


def _current():
    """`current` of the CPU gdb stopped on: its per-CPU current_task
    (kernel/include/kernel/task.h), at the template's address plus that
    CPU's __per_cpu_offset (0 until the areas exist)."""
    return gdb.parse_and_eval(f"*(struct task **)((char *)&current_task + __per_cpu_offset[{_cpu()}])")


class GrCurrent(gdb.Command):
    """gr-current: the running task (current): pid, tgid, comm, state, need_resched, vruntime."""

    def __init__(self):
        super().__init__("gr-current", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cur = _current()
        if not int(cur):
            print("current: NULL (before sched_init)")
            return
        mv = int(_rq(_cpu())["cfs"]["min_vruntime"])
        print(f"current: {_describe(cur, mv)} state {int(cur['state'])} "
              f"need_resched {int(cur['need_resched'])}")


class GrRq(gdb.Command):
    """gr-rq: the CFS runqueue of the CPU gdb stopped on: counts, min_vruntime, curr, and the queued entities in rbtree order."""

    def __init__(self):
        super().__init__("gr-rq", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        rq = _rq(_cpu())
        cfs = rq["cfs"]
        mv = int(cfs["min_vruntime"])
        print(f"rq: nr_running {int(rq['nr_running'])} cfs.nr_running {int(cfs['nr_running'])} "
              f"load {int(cfs['load']['weight'])} clock {int(rq['clock'])} "
              f"min_vruntime {mv}")
        curr = cfs["curr"]
        if int(curr):
            print(f"  curr   {_describe(_task_of_se(curr), mv)}")
        else:
            idle = rq["curr"]
            print(f"  curr   (idle) pid {int(idle['pid'])} {idle['comm'].string()}")
        buddies = {int(cfs["next"]): "next", int(cfs["last"]): "last"}
        node = cfs["rb_leftmost"]
        i = 0
        while int(node):
            se = _container(node, "sched_entity", "run_node")
            tag = buddies.get(int(se), "")
            print(f"  [{i:2d}]   {_describe(_task_of_se(se), mv)} {tag}".rstrip())
            node = _rb_next(node)
            i += 1
        if i == 0:
            print("  (no queued entity besides curr)")


class GrMinVruntime(gdb.Command):
    """gr-min-vruntime: cfs_rq->min_vruntime (ns of nice-0 virtual time, monotonic)."""

    def __init__(self):
        super().__init__("gr-min-vruntime", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        print(f"min_vruntime {int(_rq(_cpu())['cfs']['min_vruntime'])}")


RqFunction()
GrCurrent()
GrRq()
GrMinVruntime()
end
