/*
 * kernel/proc/pgrp.c - process groups and sessions: setpgid, getpgid,
 * getpgrp, setsid, getsid, and kill() to a process group.
 *
 * Every process (its group leader's task) has a process group id and a
 * session id; fork copies both, so a shell's pipeline children start in
 * its group and the shell moves them (setpgid) into a job's own group.
 * The rules and errnos follow Linux 2.6.35 kernel/sys.c:
 *
 *   setpgid(pid, pgid): pid 0 is the caller, pgid 0 is pid; pgid < 0 is
 *     -EINVAL; pid must be the caller or one of its children (-ESRCH),
 *     a process (not a thread, -EINVAL); a child in another session is
 *     -EPERM, one that has exec'd since fork -EACCES; a session leader
 *     cannot move (-EPERM); a group other than its own id must already
 *     exist in the caller's session (-EPERM).
 *   setsid(): -EPERM if a process group with the caller's id exists
 *     (it leads one); else a new session and group, both = its pid, with
 *     no controlling terminal.
 *   getpgid/getsid(pid): pid 0 is the caller; -ESRCH if none.
 *
 * A process counts until it is reaped (a zombie keeps its group alive),
 * as in Linux, where the pid lives until release_task.
 */
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/sys.h>
#include <kernel/task.h>
#include <kernel/tty.h>

/* T is a process (group leader) that has not been reaped. */
static int is_process(struct task *t)
{
	return t->group_leader == t && t->pid != 0 && t->exit_state != EXIT_DEAD &&
	       (t->mm || t->exit_state);
}

static struct task *find_process(int pid)
{
	struct task *t = find_task_by_pid(pid);

	return t && is_process(t) ? t : NULL;
}

int pgrp_session(int pgrp)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
		if (is_process(t) && t->pgrp == pgrp)
			return t->session;
	return -1;
}

long sys_setpgid(int pid, int pgid)
{
	struct task *me = current->group_leader, *p;

	if (!pid)
		pid = me->tgid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_pid(pid);
	if (!p || p->exit_state == EXIT_DEAD || (!p->mm && !p->exit_state) || p->pid == 0)
		return -ESRCH;
	if (p->group_leader != p)
		return -EINVAL;
	if (p->parent == me) {
		if (p->session != me->session)
			return -EPERM;
		if (p->did_exec)
			return -EACCES;
	} else if (p != me) {
		return -ESRCH;
	}
	if (p->session == p->tgid)
		return -EPERM;		/* a session leader */
	if (pgid != pid && pgrp_session(pgid) != me->session)
		return -EPERM;
	p->pgrp = pgid;
	return 0;
}

long sys_getpgid(int pid)
{
	struct task *p = pid ? find_process(pid) : current->group_leader;

	return p ? p->pgrp : -ESRCH;
}

long sys_getpgrp(void)
{
	return current->group_leader->pgrp;
}

long sys_getsid(int pid)
{
	struct task *p = pid ? find_process(pid) : current->group_leader;

	return p ? p->session : -ESRCH;
}

long sys_setsid(void)
{
	struct task *me = current->group_leader;

	if (pgrp_session(me->tgid) >= 0)
		return -EPERM;		/* a process group with our id exists */
	me->session = me->pgrp = me->tgid;
	me->ctty = 0;
	return me->tgid;
}

/*
 * SIG to every process of group PGRP (Linux's __kill_pgrp_info): 0 if one
 * took it, else the last error (-ESRCH if the group is empty).  INFO NULL:
 * from the kernel (the tty's ^C), SI_KERNEL.  Interrupt context too.
 */
int kill_pgrp_info(int pgrp, int sig, const struct ksiginfo *info)
{
	struct task *t;
	int ret = -ESRCH, ok = 0;

	if (pgrp <= 0)
		return -ESRCH;
	list_for_each_entry(t, &task_list, tasks) {
		if (!is_process(t) || t->pgrp != pgrp)
			continue;
		struct task *to = signal_target(t, sig);
		ret = 0;
		if (to && sig && send_signal_info(to, sig, info, NULL) == -EAGAIN)
			ret = -EAGAIN;
		ok |= !ret;
	}
	return ok ? 0 : ret;
}

int kill_pgrp(int pgrp, int sig)
{
	return kill_pgrp_info(pgrp, sig, NULL);
}
