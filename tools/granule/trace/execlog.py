"""granule.trace.execlog - QEMU's log of every instruction the guest executes, from the
Nth entry of a kernel function on: the one kind of boot tools/measure-paths,
tools/profile-path and `tools/sim calibrate` (rt-app's return from its timer's sleep,
sim/rtapp_costs.py) read."""
import os
import tempfile
import threading

from .. import qemu as gq


def read_after(cmdline, function, nth, consume, extra=()):
    """Boot CMDLINE under gdb, stop at FUNCTION's NTH entry, then have QEMU log each
    instruction it executes (one per translation block, -accel one-insn-per-tb=on) into a
    FIFO that CONSUME(binary file) reads as it is written.  The guest is killed when CONSUME
    returns (it found what it wanted, or the log ended).  EXTRA: more QEMU arguments (a boot
    module's -initrd).  Returns CONSUME's result, or None
    if it never returned."""
    result = {}
    with tempfile.TemporaryDirectory(prefix="granule-execlog-") as tmp:
        fifo = os.path.join(tmp, "exec.log")
        os.mkfifo(fifo)

        def watch(qemu):
            def reader():
                with open(fifo, "rb") as f:
                    result["r"] = consume(f)
                qemu.kill()
            threading.Thread(target=reader, daemon=True).start()

        cmds = [f"break {function}", f"ignore 1 {nth - 1}", "continue", "delete 1",
                "monitor log exec,nochain", "continue"]
        gq.gdb_session(cmdline, [x for c in cmds for x in ("-ex", c)], timeout=1800,
                       extra=["-accel", "tcg,one-insn-per-tb=on", "-D", fifo, *extra], watch=watch)
    return result.get("r")
