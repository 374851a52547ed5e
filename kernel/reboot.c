/*
 * kernel/reboot.c - sync(2) and reboot(2), as Linux's kernel/reboot.c
 * (6.12; the same checks as 2.6.35's kernel/sys.c), so that busybox's
 * poweroff, reboot and halt (-f, or from init's signal handlers) work.
 *
 * sync(2) (syscall 36) has nothing to write back: every file system is in
 * RAM (the initrd, tmpfs, /proc), so it returns 0 at once.
 *
 * reboot(magic1, magic2, cmd, arg):
 *   magic1 must be LINUX_REBOOT_MAGIC1 (0xfee1dead) and magic2 one of the
 *   four LINUX_REBOOT_MAGIC2* values (Torvalds' and his daughters' birth
 *   dates), else -EINVAL;
 *   cmd RESTART (0x01234567) / RESTART2 (0xa1b2c3d4, ARG a command string,
 *   -EFAULT if unreadable): "Restarting system." and machine_restart();
 *   POWER_OFF (0x4321fedc): "Power down." and machine_power_off(0);
 *   HALT (0xcdef0123): "System halted." and machine_halt() (poweroff=0's
 *   halt: the screen stays);
 *   CAD_ON (0x89abcdef) / CAD_OFF (0): Ctrl-Alt-Del handling, recorded, 0;
 *   anything else (KEXEC, SW_SUSPEND: not built in): -EINVAL.
 * Every caller is root with CAP_SYS_BOOT, so Linux's -EPERM cannot arise.
 * Unlike Linux, whose init must stop the other processes first, the
 * machine goes down at once: there is nothing to flush.
 */
#include <kernel/errno.h>
#include <kernel/machine.h>
#include <kernel/printk.h>
#include <kernel/sys.h>
#include <kernel/uaccess.h>

#define LINUX_REBOOT_MAGIC1	0xfee1deadU
#define LINUX_REBOOT_MAGIC2	672274793U	/* 0x28121969 */
#define LINUX_REBOOT_MAGIC2A	85072278U	/* 0x05121996 */
#define LINUX_REBOOT_MAGIC2B	369367448U	/* 0x16041998 */
#define LINUX_REBOOT_MAGIC2C	537993216U	/* 0x20112000 */

#define LINUX_REBOOT_CMD_RESTART	0x01234567U
#define LINUX_REBOOT_CMD_HALT		0xcdef0123U
#define LINUX_REBOOT_CMD_CAD_ON		0x89abcdefU
#define LINUX_REBOOT_CMD_CAD_OFF	0x00000000U
#define LINUX_REBOOT_CMD_POWER_OFF	0x4321fedcU
#define LINUX_REBOOT_CMD_RESTART2	0xa1b2c3d4U

static int C_A_D = 1;		/* Linux's default: Ctrl-Alt-Del reboots */

long sys_sync(void)
{
	return 0;
}

long sys_reboot(u32 magic1, u32 magic2, u32 cmd, const char *arg)
{
	char buf[256];
	long n;

	capable(CAP_SYS_BOOT);		/* every caller has it: no -EPERM */
	if (magic1 != LINUX_REBOOT_MAGIC1 ||
	    (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
	     magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
		return -EINVAL;

	switch (cmd) {
	case LINUX_REBOOT_CMD_RESTART:
		printk("Restarting system.\n");
		machine_restart();
	case LINUX_REBOOT_CMD_RESTART2:
		n = strncpy_from_user(buf, arg, sizeof(buf) - 1);
		if (n < 0)
			return -EFAULT;
		buf[n] = '\0';
		printk("Restarting system with command '%s'\n", buf);
		machine_restart();
	case LINUX_REBOOT_CMD_CAD_ON:
		C_A_D = 1;
		return 0;
	case LINUX_REBOOT_CMD_CAD_OFF:
		C_A_D = 0;
		return 0;
	case LINUX_REBOOT_CMD_HALT:
		printk("System halted.\n");
		machine_halt();
	case LINUX_REBOOT_CMD_POWER_OFF:
		printk("Power down.\n");
		machine_power_off(EXIT_OK);
	default:
		return -EINVAL;
	}
}
