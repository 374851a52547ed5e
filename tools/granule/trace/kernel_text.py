"""granule.trace.kernel_text - the kernel's text as the execution-log readers need it.

The kernel's function symbols in address order (`nm -n` of the unstripped image) and its
control transfers (`objdump -d`: each call, ret and iret with the address after it), from
which a reader of an instruction log rebuilds the call stack (granule.measure.profile) or
finds where a path returns (granule.sim.smp_costs).
"""
import re
import subprocess

from .. import qemu as gq


def text_symbols():
    out = subprocess.run(["nm", "-n", gq.KERNEL_DEBUG], stdout=subprocess.PIPE, check=True).stdout
    addrs, names = [], []
    for line in out.decode().splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tTwW":
            addrs.append(int(p[0], 16))
            names.append(p[2])
    return addrs, names


def control_transfers():
    """{address: (kind, next address)} for the kernel's call, ret and iret."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", gq.KERNEL_DEBUG],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    insns = []
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]{8}):\s+(\S+)", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2)))
    kinds = {}
    for (addr, op), (nxt, _) in zip(insns, insns[1:]):
        if op.startswith("call"):
            kinds[addr] = ("call", nxt)
        elif op.startswith("ret"):
            kinds[addr] = ("ret", nxt)
        elif op.startswith("iret"):
            kinds[addr] = ("iret", nxt)
    return kinds
