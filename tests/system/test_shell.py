"""The interactive shell (what a boot line without run= starts, and run=shell:
busybox's ash as a login shell in its own session on the console) driven over
QEMU's serial line under -icount.

Every input is sent only after the text it answers has appeared (the
prompt, or the echo of the command being interrupted), so the transcript
does not depend on host timing.  busybox's line editor puts the tty in raw
mode and echoes itself; `cat` reads in canonical mode, so the kernel's line
discipline (kernel/n_tty.c) does the editing there.

Skipped when the image was built without busybox (make BUSYBOX=0)."""
import re

import pytest

from granule import qemu as gq
from test_busybox import have_busybox

pytestmark = pytest.mark.skipif(not have_busybox(), reason="built with BUSYBOX=0")

PROMPT = "granule# "


@pytest.fixture
def sh():
    with gq.Console("", timeout=60) as c:       # no run=: the login shell
        c.expect(PROMPT)
        yield c


def command(c, line):
    """Type LINE and Enter; the output up to the next prompt, without the
    echoed command line and busybox's cursor query."""
    c.send(line + "\r")
    out = c.expect(PROMPT).replace("\x1b[6n", "")
    assert out.startswith(line.split("\x7f")[0]), out
    return out.split("\n", 1)[1][:-len(PROMPT)] if "\n" in out else ""


SPINNER = "echo spinning; while :; do :; done"


def spin(c, line=SPINNER):
    """Start LINE, which prints "spinning" once it runs (after the line
    editor has given the tty back), and wait for that."""
    c.send(line + "\r")
    c.expect("spinning\n")


def test_prompt_and_echo(sh):
    assert command(sh, "echo hi") == "hi\n"


def test_no_run_starts_the_login_shell_with_a_path_to_everything(sh):
    assert "init: no run= on the boot line: starting the login shell (exit powers off)\n" in sh.text
    assert command(sh, "echo $PATH $HOME $TERM") == "/bin:/sbin:/usr/bin:/usr/sbin / vt100\n"
    # busybox's applets and Granule's own programs, by PATH
    assert command(sh, "which ls hello preset") == "/bin/ls\n/bin/hello\n/bin/preset\n"
    out = command(sh, "hello")
    assert re.match(r'^argv\[0\] = "hello"\nhello from user space \(pid \d+\)\n$', out), out


def test_run_shell_is_the_same_login_shell():
    with gq.Console("run=shell", timeout=60) as c:
        c.expect(PROMPT)
        assert "init: no run=" not in c.text
        assert command(c, "echo $$") == "2\n"
        c.send("exit 3\r")
        c.expect("init: shell (pid 2) exited with status 3")
        assert c.wait() == 1


def test_line_editing_backspace(sh):
    # busybox's editor: DEL rubs out the second 'o'.
    assert command(sh, "echoo\x7f hi") == "hi\n"


def test_a_bad_command_reports_not_found(sh):
    assert command(sh, "nosuchcmd") == "sh: nosuchcmd: not found\n"
    assert command(sh, "echo $?") == "127\n"


def test_canonical_mode_editing_in_cat(sh):
    # cat reads with ICANON|ECHO: the kernel echoes, DEL and ^H rub out
    # ("\b \b"), ^U kills the line, ^D at the start of a line is end of file.
    # "go" is printed once the line editor has given the tty back (canonical
    # mode): typing earlier would race with its tcsetattr, on Linux too.
    sh.send("echo go; cat\r")
    sh.expect("go\n")
    sh.send("xyz\x15abx\x7fc\x08d\r")
    out = sh.expect("abd\n")            # cat's copy of the line
    assert out == "xyz" + "\b \b" * 3 + "abx\b \bc\b \bd\nabd\n", repr(out)
    sh.send("\x04")
    sh.expect(PROMPT)


def test_ctrl_c_stops_a_spinner(sh):
    spin(sh)
    sh.send("\x03")
    out = sh.expect(PROMPT)
    assert "^C" in out, repr(out)
    assert command(sh, "echo back") == "back\n"


def test_background_job_and_jobs(sh):
    command(sh, "sleep 1 &")
    out = command(sh, "jobs")
    assert "[1]+  Running" in out and "sleep 1" in out, repr(out)


def test_exit_ends_the_session_and_powers_off(sh):
    sh.send("exit\r")
    sh.expect("init: shell (pid 2) exited with status 0")
    assert sh.wait() == 0


def test_ps2_keyboard_reaches_the_shell(sh):
    # QEMU's monitor presses keys on the emulated PS/2 keyboard (IRQ 1,
    # scan code set 1): shift-h is 'H', ret is Enter.
    for k in ["e", "c", "h", "o", "spc", "shift-h", "i", "shift-1", "ret"]:
        sh.sendkey(k)
    out = sh.expect(PROMPT).replace("\x1b[6n", "")
    assert out == "echo Hi!\nHi!\n" + PROMPT, repr(out)


def test_ps2_ctrl_c_and_arrows(sh):
    # Ctrl-C through the keyboard interrupts a spinner; the up arrow (ESC [ A)
    # recalls the last command in busybox's history.
    spin(sh)
    sh.sendkey("ctrl-c")
    sh.expect(PROMPT)
    command(sh, "echo again")
    sh.sendkey("up")
    sh.expect(PROMPT + "echo again")    # busybox redraws the line: \r, prompt, command
    sh.sendkey("ret")
    out = sh.expect(PROMPT)
    assert out.endswith("\nagain\n" + PROMPT), repr(out)


def test_ctrl_z_jobs_fg_and_kill(sh):
    # ^Z stops the foreground job (SIGTSTP to its process group: every
    # thread in TASK_STOPPED, the shell's wait4(WUNTRACED) sees it);
    # fg continues it (SIGCONT) in the foreground again; kill -9 ends a
    # stopped job.  "spinning" is printed by the job itself, so ^Z is typed
    # once it runs.
    spin(sh, f"busybox sh -c '{SPINNER}'")
    sh.send("\x1a")
    out = sh.expect(PROMPT)
    assert "[1]+  Stopped" in out, repr(out)
    assert "Stopped" in command(sh, "jobs")
    sh.send("fg\r")
    sh.expect('while :; do :; done"\n')     # fg names the job it continues (ash quotes it so)
    sh.send("\x03")
    sh.expect(PROMPT)
    assert command(sh, "jobs") == ""
    spin(sh, f"busybox sh -c '{SPINNER}'")
    sh.send("\x1a")
    sh.expect(PROMPT)
    out = command(sh, "kill -9 %1; sleep 0; jobs")
    assert "Killed" in out or out == "", repr(out)
    assert command(sh, "jobs") == ""


def test_background_read_gets_sigttin(sh):
    # A background job reading the terminal gets SIGTTIN and stops; ash
    # reports it at its next prompt after the job's stop reached wait4.
    command(sh, "cat &")
    out = command(sh, "sleep 0; jobs")
    assert "[1]+  Stopped (tty input)" in out and "cat" in out, repr(out)
    command(sh, "kill -9 %1")
    assert "Killed" in command(sh, "jobs")
    assert command(sh, "jobs") == ""


def test_background_write_under_tostop_gets_sigttou(sh):
    # With TOSTOP a background job writing the terminal stops (SIGTTOU for
    # its group) before anything is written; fg continues it in the
    # foreground, where the write restarts and goes through.
    command(sh, "stty tostop; echo hi &")
    out = command(sh, "sleep 0; jobs")
    assert "[1]+  Stopped (tty output)" in out and "echo hi" in out, repr(out)
    assert "hi" not in out.split("\n"), repr(out)      # nothing written
    assert command(sh, "fg") == "echo hi\nhi\n"
    # Without TOSTOP the same write goes ahead (`wait`: before the next
    # prompt, which the job's line would otherwise race with).
    out = command(sh, "stty -tostop; echo hi2 & wait")
    assert out.split("\n")[0] == "hi2" and "Stopped" not in out, repr(out)
    assert "Stopped" not in command(sh, "jobs")


def test_background_tcsetattr_gets_sigttou_without_tostop(sh):
    # Changing the terminal from the background stops the job whatever
    # TOSTOP says (stty's tcsetattr is TCSETS); fg lets it finish.
    assert "-tostop" in command(sh, "stty -a").split()
    command(sh, "stty -echo &")
    out = command(sh, "sleep 0; jobs")
    assert "[1]+  Stopped (tty output)" in out and "stty -echo" in out, repr(out)
    assert command(sh, "fg") == "stty -echo\n"
    assert "-echo" in command(sh, "stty -a").split()
