"""Everyday Linux commands at Granule's shell, each as on Linux: poweroff and
reboot (sync(2), init's signals, reboot(2)), dmesg (syslog(2) over the kernel
log ring), time CMD (vfork), times, taskset -p (sched_getaffinity), df and
mount (/proc/mounts, statfs64), whoami and id (/etc/passwd, /etc/group), nice
(user/nice.c, coreutils' nice), sysctl -w of an unknown key (ENOENT), a /tmp
file's date (the RTC's 2010), and sh running a script (/bin/sh is busybox;
kbuild-load -P chain's stages live in /usr/lib/granule/kbuild/).

Skipped when the image was built without busybox (make BUSYBOX=0)."""
import re

import pytest

from conftest import boot, check_clean
from test_busybox import have_busybox

pytestmark = pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")

EXIT_RE = re.compile(r"^init: (\S+) \(pid \d+\) exited with status (\d+)$")

# (command, expected lines (str or regex), exit status)
COMMANDS = [
    ("busybox whoami", ["root"], 0),
    ("busybox id", ["uid=0(root) gid=0(root)"], 0),     # no supplementary groups, as Linux's init
    ("busybox sh -c 'times'", [re.compile(r"^0m0\.\d{3}s 0m0\.000s$"),
                               re.compile(r"^0m0\.\d{3}s 0m0\.000s$")], 0),
    ("busybox time busybox sleep 0.2", ["real\t0m 0.20s", re.compile(r"^user\t0m 0\.0\ds$"),
                                       "sys\t0m 0.00s"], 0),
    ("busybox taskset -p 1", ["pid 1's current affinity mask: 1"], 0),
    ("busybox taskset -p 2 1", ["pid 1's current affinity mask: 1",
                                "taskset: can't set pid 1's affinity: Invalid argument"], 1),
    ("busybox taskset -p 99999", ["taskset: can't get pid 99999's affinity: No such process"], 1),
    ("busybox df /tmp", ["Filesystem           1K-blocks      Used Available Use% Mounted on",
                         "tmpfs                     1024         0      1024   0% /tmp"], 0),
    ("busybox mount", ["rootfs on / type rootfs (ro)",
                       "devtmpfs on /dev type devtmpfs (rw,relatime,mode=755)",
                       "proc on /proc type proc (rw,nosuid,nodev,noexec,relatime)",
                       "sysfs on /sys type sysfs (rw,nosuid,nodev,noexec,relatime)",
                       "debugfs on /sys/kernel/debug type debugfs (rw,nosuid,nodev,noexec,relatime)",
                       "tmpfs on /tmp type tmpfs (rw,relatime,size=1024k,nr_inodes=256)"], 0),
    ("busybox sysctl -w kernel.sched_nosuch=1", ["sysctl: error: 'kernel.sched_nosuch' is an unknown key"], 1),
    ("busybox sh -c 'echo 1 > /proc/sys/kernel/sched_nosuch'",
     ["sh: can't create /proc/sys/kernel/sched_nosuch: nonexistent directory"], 1),
    ("busybox sh -c 'echo x > /tmp/f; ls -l /tmp/f; date -r /tmp/f'",
     ["-rw-r--r--    1 root     root             2 Sep 14 12:00 /tmp/f",
      "Tue Sep 14 12:00:00 UTC 2010"], 0),
    ("busybox sh -c 'echo echo script ran > /tmp/s.sh; sh /tmp/s.sh'", ["script ran"], 0),
    ("busybox readlink /bin/sh", ["busybox"], 0),
]
# Two boots: a run= holds at most 511 characters.
NICE = [
    ("nice", ["0"], 0),
    ("nice nice", ["10"], 0),
    ("nice -n 5 nice -n -2 nice", ["3"], 0),
    ("nice -7 nice --adjustment=30 nice", ["19"], 0),
    ("nice --5 nice", ["-5"], 0),
    ("nice -n abc true", ["nice: invalid adjustment 'abc'", "Try 'nice --help' for more information."], 125),
    ("nice -n 5", ["nice: a command must be given with an adjustment",
                   "Try 'nice --help' for more information."], 125),
    ("nice -x", ["nice: invalid option -- 'x'", "Try 'nice --help' for more information."], 125),
    ("nice nosuchcmd", ["nice: 'nosuchcmd': No such file or directory"], 127),
    ("nice /proc/version", ["nice: '/proc/version': Permission denied"], 126),
    ("nice --version", ["nice (GNU coreutils) 9.1"], 0),
]


def blocks(run):
    """[(program, output lines, exit status)] per command, after "Boot complete"."""
    lines = run.lines[run.lines.index("Boot complete") + 1:]
    out, cur = [], []
    for l in lines:
        m = EXIT_RE.match(l)
        if m:
            out.append((m.group(1), cur, int(m.group(2))))
            cur = []
        else:
            cur.append(l)
    return out, cur


def run_line(cmds):
    line = "; ".join(c for c, _, _ in cmds)
    assert len(line) <= 511, len(line)
    return line


@pytest.fixture(scope="module")
def commands():
    return boot('run="%s; busybox poweroff"' % run_line(COMMANDS), timeout=300)


def check_blocks(run, cmds):
    got, _ = blocks(run)
    assert len(got) >= len(cmds), run.output[-3000:]
    bad = []
    for (cmd, want, status), (_, out, st) in zip(cmds, got):
        ok = len(out) == len(want) and st == status and all(
            (w.match(o) if hasattr(w, "match") else w == o) for w, o in zip(want, out))
        if not ok:
            bad.append((cmd, out, st))
    assert not bad, "\n".join(map(repr, bad))
    assert not run.find(r"\[\d+\]: unknown syscall"), run.output[-3000:]


def test_commands_print_what_linux_prints(commands):
    check_blocks(commands, COMMANDS)


def test_nice_is_coreutils_nice():
    r = boot('run="%s"' % run_line(NICE), timeout=120)
    check_clean(r, status=1)
    check_blocks(r, NICE)


def test_poweroff_asks_init_which_powers_off(commands):
    # busybox poweroff: sync(2), then SIGUSR2 to pid 1, as to busybox's init.
    # A requested power-off is a clean end: status 0 whatever the commands before did.
    check_clean(commands, status=0)
    _, tail = blocks(commands)
    assert tail == ["init: power off requested: stopping every process", "Powering off (status 0)", ""], tail


def test_poweroff_f_and_reboot():
    # -f: reboot(2) itself (Linux's magic numbers) from a process that is not init.
    r = boot('run="busybox poweroff -f"', timeout=60)
    check_clean(r, status=0)
    assert r.has_line("Power down."), r.output[-2000:]
    # reboot: SIGTERM to init, reboot(2) RESTART; QEMU (-no-reboot) exits with no status.
    r = boot('run="busybox reboot"', timeout=60)
    assert not r.timed_out and r.status is None, r.output[-2000:]
    assert r.has_line("init: reboot requested: stopping every process"), r.output[-2000:]
    assert r.has_line("Restarting system."), r.output[-2000:]
    assert len([l for l in r.lines if l.endswith(") booting")]) == 1, r.output[-2000:]


def test_dmesg_shows_the_boot_and_its_knob_errors():
    # The log ring holds the kernel's lines (printk and its tables), not what programs write.
    r = boot("sched_latency_ns=abc sched_min_granularity=1 "
             "run=\"busybox sh -c 'echo program output; dmesg | grep -e cmdline: -e Boot -e program'\"",
             timeout=60)
    check_clean(r, status=0)
    (_, out, st), = blocks(r)[0]
    assert st == 0
    assert out[0] == "program output", out
    assert out[1].startswith("Boot loader: "), out
    assert out[2].startswith("Command line: sched_latency_ns=abc"), out
    assert out[3:6] == [
        "cmdline: sched_latency_ns=abc: invalid (expected an integer 100000..1000000000); keeping 6000000",
        "cmdline: unknown parameter 'sched_min_granularity' (did you mean sched_min_granularity_ns?); "
        "passed to init's programs",
        "  run = busybox sh -c 'echo program output; dmesg | grep -e cmdline: -e Boot -e program'",
    ], out
    assert out[6:] == ["Boot complete"], out


def test_kbuild_chain_stages_show_in_ps():
    r = boot("run=\"busybox sh -c 'kbuild-load -j 2 -d 1 -P chain -q & sleep 0.5; ps -o comm'\"",
             timeout=60)
    check_clean(r, status=0)
    (_, out, _), = blocks(r)[0]
    names = [l.strip() for l in out]
    for stage in ("sh", "gcc", "cc1"):
        assert stage in names, out
