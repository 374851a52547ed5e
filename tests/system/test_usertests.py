"""usertests (user/tests/usertests.c): the process/memory/syscall robustness suite
runs in QEMU under -icount and must pass completely - every test OK, the free
frame count identical before and after, no kernel panic, init's power-off
status 0.  A few tests are also run by name (the "usertests NAME..." path)."""
import re

import pytest

from conftest import boot, check_clean, usertests_ok

# Every test name in the suite's tables (user/tests/ut_mem.c, ut_proc.c, ut_thread.c, ut_sig.c, ut_tls.c,
# ut_life.c, ut_limits.c, ut_abi.c, ut_fs.c).
ALL_TESTS = [
    "copyin", "copyout", "badfd", "exec_badptr", "wait_badptr", "time_badptr", "uname_badptr",
    "futex_badptr", "clone_badptr", "kernmem", "badaccess", "textwrite", "stackguard",
    "stackoverflow", "uio", "badtrap", "badsp", "nosys", "bss", "brk_basic", "brk_abuse",
    "brk_shrink", "brk_big", "cow", "oom", "fpu",
    "ids", "exitwait", "exitcodes", "waitnohang", "killstatus", "zombies", "orphans",
    "forklimit", "forkbomb", "nice", "exec_ok", "exec_noargs", "exec_bigarg", "exec_e2big",
    "exec_enoent", "exec_enoexec", "exec_paths", "sleeptime", "wait_rusage", "sighand_exit_group",
    "vm_cleartid_exec",
    "thread_stress", "thread_ids", "thread_exit", "exec_thread", "exec_thread_fail",
    "exec_thread_kill", "thread_rusage",
    "sigfpu_preserve", "sigfpu_modify", "sigfpu_mxcsr", "sigfpu_null", "sigfpu_badptr", "sig_norestorer",
    "tls_area", "tls_badptr", "tls_errno", "tls_syscall", "tls_signal", "tls_badgs",
    "tls_badfs", "sig_badsegs", "sig_ldtsegs", "tls_clear_loaded", "tls_switch", "tls_fork", "tls_settls",
    "kill_init", "orphan_exit_signal", "timer_exit_sighand", "timer_exit_thread",
    "fork_after_leader_exit", "kill_leaderless", "kill_exited_thread",
    "exec_after_leader_exit", "clone_exit_signal", "clone_child_settid",
    "timer_1ns_hog", "timer_1ns_overrun", "timer_1ns_ignored", "sigpending_limit", "tty_bigwrite",
    "auxv", "thread_startup", "prctl_name", "rlimits", "getrandom", "mmap", "writev", "tty_ioctl",
    "stat", "paths", "time64", "sysinfo",
    "open", "dev_files", "getdents64", "dup", "chdir", "proc_sys", "proc_sys_schedstats", "proc_sys_rt",
    "sched_attr_einval", "sched_attr_e2big", "sched_attr_efault", "sched_attr_roundtrip",
    # user/tests/ut_rt.c: the sched_setscheduler family on the rt class
    "rt_setscheduler_errnos", "rt_getparam_errnos", "rt_roundtrip", "rt_priority_range",
    "rt_rr_interval", "rt_setattr", "rt_setscheduler_requeues", "rt_zombie", "futex_wake_order",
    # user/tests/ut_rt_smp.c
    "rt_spread_on_wakeup",
    # user/tests/ut_poll.c
    "poll", "ppoll", "select", "pselect6", "rt_sigsuspend",
    # user/tests/ut_job.c
    "pgrp", "session", "ldisc", "stop", "sigttin", "sigttou",
    "vdso_auxv", "vdso_clock", "vdso_write",
    # the shell's file side
    "pipe", "pipe_epipe", "pipe_nonblock", "pipe_fork", "pipe_eintr", "pipe_limits", "pipe_copies",
    "pipe_wakeups",
    "tmpfs_files", "tmpfs_dirs", "tmpfs_rename", "tmpfs_nospc",
    "procfs_pid", "procfs_exit", "procfs_sys",
    # user/tests/ut_entry.c
    "syscall_regs", "syscall_df", "syscall_table_edges", "syscall_sigwork", "syscall_restart",
    # user/tests/ut_hostile.c, ut_hostile_proc.c: the red-team pass (docs/ROBUSTNESS.md)
    "hostile_fd_edges", "hostile_close_blocked", "hostile_deep_dirfd", "hostile_tmpfs_offsets",
    "hostile_self_rename", "hostile_tiny_buffers", "hostile_mprotect_cow", "hostile_addr_abuse",
    "hostile_tmpfs_nodes", "hostile_mmap_areas", "hostile_exec_nonprograms", "hostile_tty_ioctl",
    "hostile_pipe_peer_killed", "hostile_poll_storm", "hostile_stopped_reap", "hostile_orphaned_stop",
    "hostile_bad_timeouts",
    "hostile_statx", "hostile_pgid_sessions", "hostile_clone_flags", "hostile_stack",
    "hostile_entry_insns",
    # user/tests/ut_hostile_sig.c: signals, timers, sleeps, priorities, limits
    "hostile_sig_args", "hostile_sigwait_ignored", "hostile_thread_exit_pending", "hostile_timer_edges",
    "hostile_sleep_edges", "hostile_prio_edges", "hostile_small_calls",
    # user/tests/ut_dyn.c: what dynamic glibc programs need
    "mmap_file", "mmap_file_fork", "pread64", "mlock", "vmpeak", "futex_bitset", "futex_wake_pi", "fd_table_grow",
    # user/tests/ut_cmds.c: the calls behind everyday commands
    "reboot_calls", "syslog_calls", "vfork_calls", "times_calls", "affinity_calls", "affinity_moves",
    "statfs_calls", "proc_create", "file_times",
    # user/tests/ut_itimer.c: alarm, setitimer, getitimer
    "itimer_alarm_once", "itimer_alarm_left", "itimer_interval", "itimer_overrun_skipped",
    "itimer_ignored_stops", "itimer_getitimer", "itimer_errors", "itimer_default_kills", "itimer_fork", "itimer_exec",
    "itimer_exit",
    # user/tests/ut_futex_pi.c: PI futexes and the robust list
    "futex_pi_errnos", "futex_pi_contended", "futex_pi_signal", "futex_pi_boost", "futex_pi_chain",
    "futex_pi_rr_interval", "futex_pi_expired", "futex_pi_owner_died",
    "robust_list_hostile",
    # user/tests/ut_mm.c: mappings and the ELF loader against 2.6.35
    "mprotect_none", "mprotect_lower", "mmap_file_offsets", "madvise_dontneed", "exec_shared_page", "exec_big_bss",
    "exec_interp_exec",
    # user/tests/ut_acct.c: every accounted figure moves with the work that must move it
    "acct_proc_stat", "acct_pid_stat", "acct_ctxt_switches", "acct_getrusage", "acct_times",
    "acct_memory_and_tasks", "acct_interval_reread",
    # user/tests/ut_rlimit.c: limits reported as enforced, mlock's holes
    "rlimit_sigpending", "rlimit_rss", "rlimit_nofile", "rlimit_defaults", "mlock_holes",
    # user/tests/ut_maps.c: /proc/PID/maps
    "maps_format", "maps_lines", "maps_many",
]


@pytest.fixture(scope="module")
def full_run():
    # ~1 s of virtual time; a few seconds of wall time under -icount.  Under
    # both checkers, as at two and four CPUs (test_smp_verify.py); at one CPU
    # the locks are jumps over themselves, so it is the scheduler's checker
    # that speaks here.
    return boot('run="usertests" sched_verify=1 lockdep=1', timeout=110)


def test_usertests_all_pass(full_run):
    r = full_run
    check_clean(r, status=0)
    assert r.has_line("usertests starting"), r.output[-3000:]
    assert r.has_line("ALL TESTS PASSED"), r.output[-3000:]
    assert not r.has_line("SOME TESTS FAILED")
    failed = [l for l in r.lines if re.match(r"^test \S+: FAILED$", l)]
    assert not failed, "\n".join(failed) + "\n" + r.output[-3000:]
    assert r.has_line("init: usertests (pid 2) exited with status 0"), r.output[-2000:]
    assert r.has_line("sched_verify: 0 violations"), r.output[-2000:]


# Several CPUs: test_smp_verify.py runs the whole suite at two and four CPUs under
# both checkers.


def test_every_test_ran_once_and_passed(full_run):
    ok = [m.group(1) for l in full_run.lines for m in [re.match(r"^test (\S+): OK$", l)] if m]
    assert sorted(ok) == sorted(ALL_TESTS), (set(ALL_TESTS) ^ set(ok))


def test_no_frame_leak(full_run):
    m = full_run.find(r"^usertests: free frames (\d+) before and after$")
    assert m and int(m.group(1)) > 30000, full_run.output[-2000:]
    assert not full_run.find(r"lost \d+ free frames")


def test_faults_are_reported_linux_style(full_run):
    # sigfpu_badptr: an unreadable sigcontext.fpstate is a bad frame (Linux
    # signal_fault), SIGSEGV; the kernel carries on.
    assert full_run.find(r"^usertests\[\d+\] bad frame in rt_sigreturn frame:[0-9a-f]{8} "
                         r"ip:[0-9a-f]+ sp:[0-9a-f]+ orax:ad$")
    assert full_run.find(r"^usertests\[\d+\] bad frame in sigreturn frame:[0-9a-f]{8} "
                         r"ip:[0-9a-f]+ sp:[0-9a-f]+ orax:77$")
    assert not full_run.find(r"Kernel panic|Fatal exception")
    # oom: the hog is killed, the kernel carries on.
    assert full_run.find(r"^Out of memory: killed process \d+ \(usertests\)$")


USER_TRAP = r"^usertests\[\d+\](: segfault at | general protection | trap )"


def test_user_trap_lines_are_rate_limited(full_run):
    # printk_ratelimit (Linux): a burst of 10 lines per 5 s of kernel time;
    # the first line of a later window is "FUNC: N callbacks suppressed" for
    # what the last one dropped.  The suite faults far more than 10 times in
    # its first 5 s, so the first burst is exactly 10; whether a second
    # window opens depends on how long the suite runs, not on the limiter.
    bursts, suppressed = [[]], []
    for l in full_run.lines:
        if re.match(USER_TRAP, l):
            bursts[-1].append(l)
        elif m := re.match(r"^\w+: (\d+) callbacks suppressed$", l):
            suppressed.append(int(m.group(1)))
            bursts.append([])
    assert len(bursts[0]) == 10, "\n".join(bursts[0])
    assert all(len(b) <= 10 for b in bursts), [len(b) for b in bursts]
    assert all(n > 0 for n in suppressed), suppressed


def test_user_faults_linux_style_lines():
    # Few enough faults in one boot to stay under the rate limit (10 lines):
    # the silent cases first (a line from them would show), uio 6, kernmem 4.
    r = boot('run="usertests tls_badgs tls_badfs sig_badsegs uio kernmem"', timeout=60)
    check_clean(r, status=0)
    # kernmem: user read/write of 0xc0000000 (present kernel page: error 5/7).
    assert r.find(r"^usertests\[\d+\]: segfault at c0000000 ip [0-9a-f]{8} sp [0-9a-f]{8} error 5$")
    assert r.find(r"^usertests\[\d+\]: segfault at c0000000 ip [0-9a-f]{8} sp [0-9a-f]{8} error 7$")
    # uio: in/out from ring 3 is a general protection fault.
    assert r.find(r"^usertests\[\d+\] general protection ip:[0-9a-f]+ sp:[0-9a-f]+ error:0$")
    assert not r.find(r"callbacks suppressed")
    # tls_badgs, tls_badfs, sig_badsegs: a sigcontext data selector that does
    # not load faults in the kernel's "pop gs/fs/es/ds" on the way out; as
    # Linux 2.6.35 that selector is silently nulled (no message, no signal),
    # and a bad cs/ss at the iret is a silent SIGILL (do_iret_error).
    assert not r.find(r"general protection ip:[0-9a-f]+ sp:[0-9a-f]+ error:(fff8|fffb|28|10|13|18|1b|20)$")
    assert not r.find(r"\] trap (segment not present|stack segment|iret)")


def test_named_tests_only():
    r = boot('run="usertests ids exec_noargs cow"', timeout=60)
    check_clean(r, status=0)
    ran = [l for l in r.lines if l.startswith("test ")]
    assert ran == ["test ids: OK", "test exec_noargs: OK", "test cow: OK"], r.output[-2000:]
    assert r.has_line("ALL TESTS PASSED")


def test_unknown_name_fails_the_run():
    r = boot('run="usertests nosuchtest bss"', timeout=60)
    check_clean(r, status=1)
    assert r.has_line("usertests: no test named nosuchtest")
    assert r.has_line("test nosuchtest: FAILED")
    assert r.has_line("test bss: OK")
    assert r.has_line("SOME TESTS FAILED")
    assert r.has_line("init: usertests (pid 2) exited with status 1")


def run_without(flag, cpu, names):
    """Run the usertests NAMES on CPU, a model without the CPUID flag FLAG: all pass."""
    r = boot(f'run="usertests {names}"', cpu=cpu, timeout=60)
    check_clean(r, status=0)
    assert r.find(rf"^CPU flags: (?!.*\b{flag}\b)"), r.output[-2000:]
    ran = [l for l in r.lines if l.startswith("test ")]
    assert ran == [f"test {n}: OK" for n in names.split()], r.output[-2000:]


def test_syscall_gate_without_sep():
    # int $0x80 is the only gate (docs/FASTPATHS.md: no SYSENTER), so a CPU
    # without SEP runs the same path: registers, DF, the tables' edges, the
    # exit work, a handler's return and a restarted call.
    run_without("sep", "qemu32,-sep", "syscall_regs syscall_df syscall_table_edges syscall_sigwork "
                "syscall_restart sig_norestorer pipe_eintr")


def test_sep_is_reported_where_the_cpu_has_it(full_run):
    assert full_run.find(r"^CPU flags: .*\bsep\b"), full_run.output[-2000:]


def test_signal_fpu_without_fxsr():
    # A Pentium Pro-class CPU (no FXSR/SSE): the kernel uses fnsave/frstor,
    # frames carry the 112-byte fnsave header with magic 0xffff.
    run_without("fxsr", "qemu32,-fxsr,-sse,-sse2",
                "sigfpu_preserve sigfpu_modify sigfpu_mxcsr sigfpu_null sigfpu_badptr fpu")


def test_unknown_syscalls_logged_once_per_program(full_run):
    # nosys makes each call twice; the kernel logs each number once for the
    # program (numbers beyond Linux's 0..1023 share one line: the first).
    by_pid = {}
    for line in full_run.lines:
        m = re.search(r"\busertests\[(\d+)\]: unknown syscall (\d+)$", line)
        if m:
            by_pid.setdefault(m.group(1), []).append(int(m.group(2)))
    nosys = [nrs for nrs in by_pid.values() if 499 in nrs]
    assert nosys == [[0, 17, 31, 399, 499, 1000, 9999]], by_pid


# ---- the vDSO (arch/x86/vdso.c) -------------------------------------------------

VDSO_TESTS = "vdso_auxv vdso_clock vdso_write"


def test_vdso_mapped_by_default(full_run):
    assert full_run.has_line("usertests: vdso at 0x8047000"), full_run.output[-2000:]


def test_vdso_without_tsc_clock_is_the_system_call():
    # clocksource=pit: the data page says VCLOCK_NONE and every vDSO call is
    # the system call; the clocks still agree with it (vdso_clock).
    r = boot(f'run="usertests {VDSO_TESTS}" clocksource=pit', timeout=60)
    check_clean(r, status=0)
    assert r.has_line("clocksource: pit tick count (clocksource=pit)") or \
        any("clocksource: pit" in l for l in r.lines), r.output[-2000:]
    assert r.has_line("usertests: vdso at 0x8047000")
    assert [l for l in r.lines if l.startswith("test ")] == [f"test {n}: OK" for n in VDSO_TESTS.split()]


def test_vdso_off_means_no_auxv_entries():
    r = boot(f'run="usertests {VDSO_TESTS}" vdso=0', timeout=60)
    check_clean(r, status=0)
    assert r.has_line("usertests: no vdso"), r.output[-2000:]
    assert [l for l in r.lines if l.startswith("test ")] == [f"test {n}: OK" for n in VDSO_TESTS.split()]


def test_readme_counts_the_suite():
    """README.md's program list gives the suite's size; it must follow the tables."""
    import os
    readme = open(os.path.join(os.path.dirname(__file__), "..", "..", "README.md")).read()
    m = re.search(r"`usertests` \((\d+) robustness checks\)", readme)
    assert m and int(m.group(1)) == len(ALL_TESTS), (m and m.group(1), len(ALL_TESTS))
