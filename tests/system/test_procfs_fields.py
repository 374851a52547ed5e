"""/proc/PID/stat and /proc/PID/status print what Linux computes (fs/proc/array.c
and fs/proc/task_mmu.c, 2.6.35), read by busybox sh in a job-control situation.

One boot runs SCRIPT under `setsid -c` (a session of its own, the console its
controlling terminal) with `set -m` (each job in its own process group, the
foreground one the terminal's): the shell reads its own files with a handler
installed for SIGUSR1 and SIGUSR2 ignored; a foreground pipeline, a
background job and a subshell (a fork with no exec) read theirs; a program
under chrt shows its rt_priority; cyclictest -m (mlockall) shows VmLck.  Each
field is checked against what that situation implies, and the code addresses
against busybox's own program headers.  The same script runs on Debian's
Linux 6.1 (tools/linux-peer, same module) and the fields that must agree are
compared: the signal sets, FDSize, the process-group relations, PF_FORKNOEXEC and
PF_SUPERPRIV, rt_priority and policy, a non-zero VmLck.
"""
import io
import os
import re
import tarfile

import pytest

from conftest import boot, check_clean, elf_program_headers

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RTTESTS = os.path.join(ROOT, "build", "rt-tests", "rt-tests.tar")
BUSYBOX = os.path.join(ROOT, "build", "busybox", "busybox")

pytestmark = pytest.mark.skipif(not (os.path.exists(RTTESTS) and os.path.exists(BUSYBOX)),
                                reason="no build/rt-tests or build/busybox (make deps fetches them)")

SIGUSR1, SIGUSR2, SIGTSTP, SIGTTOU = 10, 12, 20, 22
PF_EXITING, PF_FORKNOEXEC, PF_SUPERPRIV, PF_KTHREAD = 0x4, 0x40, 0x100, 0x200000
PAGE = 4096

SCRIPT = r"""B=/bin/busybox
CHRT=/bin/chrt; [ -x $CHRT ] || CHRT=/chrt
set -m
trap 'echo caught' USR1
trap '' USR2
echo "== console $($B stat -c '%t %T' /dev/console)"
echo "== shell $$"
read -r l < /proc/self/stat; echo "$l"
while read -r l; do echo "$l"; done < /proc/self/status
echo "== fg"
$B cat /proc/self/stat /proc/self/status | $B cat
echo "== bg"
$B cat /proc/self/stat > /tmp/bg & wait
$B cat /tmp/bg
echo "== sub"
( read -r l < /proc/self/stat; echo "$l" )
echo "== rt"
$CHRT -f 10 $B cat /proc/self/stat
echo "== mlock"
/usr/bin/cyclictest -m -q -t1 -i 10000 -l 50 > /dev/null &
$B sleep 0.2
$B cat /proc/$!/status
wait
echo "== end"
"""
RUN = "/bin/busybox setsid -c /bin/busybox sh /usr/share/granule/procfs-fields.sh"


def module(path):
    """rt-tests' boot module with the script added (one module: QEMU's -initrd)."""
    with tarfile.open(RTTESTS) as src, tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as out:
        for m in src.getmembers():
            out.addfile(m, src.extractfile(m) if m.isfile() else None)
        for d in ("usr/share", "usr/share/granule"):
            info = tarfile.TarInfo(d)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            out.addfile(info)
        data = SCRIPT.encode()
        info = tarfile.TarInfo("usr/share/granule/procfs-fields.sh")
        info.size, info.mode = len(data), 0o755
        out.addfile(info, io.BytesIO(data))
    return path


def sections(lines):
    """{name: (argument words, [lines])} between the script's '== name' markers."""
    out, cur = {}, None
    for line in lines:
        m = re.match(r"== (\w+)(.*)$", line.strip())
        if m:
            cur = out[m.group(1)] = (m.group(2).split(), [])
        elif cur is not None:
            cur[1].append(line.strip())
    assert "end" in out, "\n".join(lines[-60:])
    return out


def stat_fields(lines):
    """/proc/PID/stat as man 5 proc numbers it: f[1] pid, f[2] comm, f[3] state ..."""
    line = next(l for l in lines if re.match(r"\d+ \(.*\) [A-Z] ", l))
    head, rest = line.split(" (", 1)
    comm, tail = rest.rsplit(") ", 1)
    words = tail.split()
    return [None, int(head), comm, words[0]] + [int(w) for w in words[1:]]


def status_fields(lines):
    out = {}
    for l in lines:
        m = re.match(r"(\w+):\s*(.*)$", l)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def kb(s):
    return int(s.split()[0])


def sigset(s):
    return int(s, 16)


def bit(sig):
    return 1 << (sig - 1)


def busybox_code():
    """(start_code, end_code, exec_vm pages) of busybox as 2.6.35's load_elf_binary
    and vm_stat_account count them: the lowest PT_LOAD address, the end of the file
    part of the highest executable one, the pages of the read-only executable ones."""
    with open(BUSYBOX, "rb") as f:
        elf = f.read()
    start, end, exec_pages = 1 << 32, 0, 0
    for p_type, _, vaddr, _, filesz, _, flags, _ in elf_program_headers(elf):
        if p_type != 1:
            continue
        start = min(start, vaddr)
        if flags & 1:
            end = max(end, vaddr + filesz)
            if not flags & 2:
                exec_pages += (-(-(vaddr + filesz) // PAGE) * PAGE - (vaddr & ~(PAGE - 1))) // PAGE
    return start, end, exec_pages


@pytest.fixture(scope="module")
def granule(tmp_path_factory):
    tar = module(str(tmp_path_factory.mktemp("procfs") / "procfs.tar"))
    r = boot(f'run="{RUN}"', extra=["-initrd", tar], timeout=300)
    check_clean(r)
    return sections(r.lines)


def test_the_shell_is_its_sessions_foreground_leader(granule):
    shell = int(granule["shell"][0][0])
    s = stat_fields(granule["shell"][1])
    major, minor = (int(x, 16) for x in granule["console"][0])
    assert s[1] == shell
    assert s[5] == shell and s[6] == shell              # pgrp, session: setsid made it both
    assert s[7] == (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12)  # new_encode_dev
    assert s[8] == shell                                # tpgid: the shell runs in the foreground
    assert s[9] & (PF_FORKNOEXEC | PF_EXITING | PF_KTHREAD | PF_SUPERPRIV) == 0  # it exec'd busybox
    assert s[33] & bit(SIGUSR2) and not s[33] & bit(SIGUSR1)        # sigignore
    assert s[34] & bit(SIGUSR1) and not s[34] & bit(SIGUSR2)        # sigcatch
    st = status_fields(granule["shell"][1])
    assert sigset(st["SigIgn"]) & 0x7fffffff == s[33]
    assert sigset(st["SigCgt"]) & 0x7fffffff == s[34]
    # set -m: the shell ignores the terminal's stop signals while it controls jobs
    assert sigset(st["SigIgn"]) & (bit(SIGTSTP) | bit(SIGTTOU)) == bit(SIGTSTP) | bit(SIGTTOU)
    assert st["ShdPnd"] == "0" * 16 and st["SigQ"] == "0/1024"
    assert st["FDSize"] == "64"


def test_a_foreground_pipeline_is_its_own_group_and_the_terminals(granule):
    shell = int(granule["shell"][0][0])
    lines = granule["fg"][1]
    s, st = stat_fields(lines), status_fields(lines)
    assert s[5] == s[1] != shell and s[6] == shell      # its own group, the shell's session
    assert s[7] == stat_fields(granule["shell"][1])[7]  # the same controlling terminal
    assert s[8] == s[1]                                 # tpgid: its group is the foreground
    assert s[9] & (PF_FORKNOEXEC | PF_SUPERPRIV) == 0
    # exec kept the ignored signal and dropped the handler (flush_signal_handlers)
    assert s[33] & bit(SIGUSR2) and s[34] == 0 and sigset(st["SigCgt"]) == 0
    assert s[40] == 0 and s[41] == 0                    # rt_priority, policy
    start, end, exec_pages = busybox_code()
    assert (s[26], s[27]) == (start, end)               # startcode, endcode
    assert s[26] <= s[30] < s[27] or 0x08046000 <= s[30] < 0x08048000   # kstkeip: text or vDSO
    assert s[28] - (8 << 20) < s[29] <= s[28] < 0xC0000000    # kstkesp below startstack
    text_kb = min((-(-end // PAGE) * PAGE - (start & ~(PAGE - 1))) // 1024, exec_pages * 4)
    assert kb(st["VmExe"]) == text_kb and kb(st["VmLib"]) == exec_pages * 4 - text_kb
    assert kb(st["VmStk"]) > 0 and kb(st["VmStk"]) % 4 == 0
    # page tables: one for the program and its heap, one for the stack, one per other 4 MiB used
    assert kb(st["VmPTE"]) >= 8 and kb(st["VmPTE"]) % 4 == 0
    assert kb(st["VmLck"]) == 0
    # 2.6.35's VmData: total_vm - shared_vm (file mappings) - stack_vm
    assert kb(st["VmData"]) + kb(st["VmStk"]) < kb(st["VmSize"])
    assert s[23] == kb(st["VmSize"]) * 1024             # vsize


def test_a_background_job_is_not_the_foreground(granule):
    shell = int(granule["shell"][0][0])
    s = stat_fields(granule["bg"][1])
    assert s[5] == s[1] != shell and s[6] == shell
    assert s[8] == shell != s[5]


def test_a_subshell_is_a_fork_without_exec(granule):
    shell = int(granule["shell"][0][0])
    s = stat_fields(granule["sub"][1])
    assert s[9] & PF_FORKNOEXEC
    assert s[5] == s[1] != shell and s[8] == s[1]
    assert s[33] & bit(SIGUSR2) and not s[34] & bit(SIGUSR1)   # a subshell resets traps, keeps ignores


def test_chrt_shows_rt_priority_and_policy(granule):
    s = stat_fields(granule["rt"][1])
    assert (s[40], s[41]) == (10, 1)                    # SCHED_FIFO 10
    assert s[9] & PF_SUPERPRIV and not s[9] & PF_FORKNOEXEC   # chrt used CAP_SYS_NICE, then exec'd
    assert s[18] == -11                                 # priority: -1 - rt_priority


def test_mlockall_is_counted_in_vmlck(granule):
    st = status_fields(granule["mlock"][1])
    assert kb(st["VmLck"]) > 0
    # MCL_CURRENT|MCL_FUTURE: every mapping but the vDSO's two pages (2.6.35's
    # mlock_fixup leaves VM_DONTEXPAND mappings unlocked)
    assert kb(st["VmLck"]) == kb(st["VmSize"]) - 8
    assert int(st["Threads"]) == 2


# --- the same script on Linux 6.1 ------------------------------------------------------

boots = pytest.mark.skipif(os.environ.get("LINUX") == "0", reason="LINUX=0: no Linux boots")


@pytest.fixture(scope="module")
def linux(tmp_path_factory):
    from granule.peer import linux as lp
    tar = module(str(tmp_path_factory.mktemp("procfs-peer") / "procfs.tar"))
    r = lp.run("linux-2.6.35", RUN, module=tar, timeout=600)
    assert not r.timed_out, r.text[-3000:]
    return sections(r.lines)


@boots
def test_linux_agrees_on_the_signal_sets_and_fd_table(granule, linux):
    for part in ("shell", "fg"):
        g, l = status_fields(granule[part][1]), status_fields(linux[part][1])
        for key in ("SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt", "FDSize"):
            assert g[key] == l[key], (part, key, g[key], l[key])
        assert g["SigQ"].split("/")[0] == l["SigQ"].split("/")[0]
        gs, ls = stat_fields(granule[part][1]), stat_fields(linux[part][1])
        assert gs[31:35] == ls[31:35], part              # signal blocked sigignore sigcatch


@boots
def test_linux_agrees_on_groups_flags_and_priorities(granule, linux):
    def shape(sec):
        shell = int(sec["shell"][0][0])
        out = {}
        for part in ("shell", "fg", "bg", "sub", "rt"):
            s = stat_fields(sec[part][1])
            out[part] = (s[5] == s[1], s[5] == shell, s[6] == shell, s[7] != 0, s[8] == s[5],
                         s[8] == shell, s[9] & (PF_FORKNOEXEC | PF_SUPERPRIV), s[40], s[41], s[18],
                         s[19])
        return out
    assert shape(granule) == shape(linux)
    assert kb(status_fields(linux["mlock"][1])["VmLck"]) > 0
