/*
 * kernel/fs/pseudo.c - the files under /dev, /proc and /sys: devices
 * (the console, null) and generated text files, with Linux's paths and
 * layouts so that Linux's tools (busybox's cat, sysctl ...) read and
 * write them unchanged.
 *
 *	/proc/sys/kernel/NAME	every scheduler knob (the sched_* boot
 *				parameters and max_lock_depth, but
 *				sched_features, which is
 *				/sys/kernel/debug/sched_features; sched_preset
 *				applies a whole preset of the running class):
 *				read gives the value and a newline; a write
 *				goes through the boot knob's parser and range
 *				check and its ->changed hook - for the CFS
 *				sysctls sched_proc_update_handler(), as
 *				Linux's proc handler - and a bad value fails
 *				with EINVAL (EBUSY for sched_rt_runtime_us=0,
 *				as Linux) and changes nothing (one line on
 *				the console names the knob, the value and the range)
 *	/proc/sys/kernel/sched_domain/cpuN/domainM/FIELD
 *				2.6.35's per-domain balancing parameters
 *				(kernel/fs/sysctl_sd.c, kernel/sched/sd_sysctl.c)
 *	/proc/sched_debug	sched_debug_show()'s dump
 *	/proc/mounts		the fixed mount table (kernel/fs/statfs.c)
 *	/proc/{cpuinfo,loadavg,lockdep_stats,meminfo,schedstat,stat,uptime,vmstat}
 *				Linux's layouts (kernel/fs/procfs.c, with
 *				/proc/PID/... and /proc/self)
 *	/proc/version		one line, as Linux's
 *	/sys/kernel/debug/sched_features
 *				Linux 2.6.35's debugfs file: read gives every
 *				feature, NO_ before the clear ones; writing NAME
 *				or NO_NAME sets or clears that bit (under EEVDF
 *				Linux 6.12's names, as its sched/features)
 *
 * A generated file is produced whole when it is opened (Linux's seq_file
 * does it at the first read) and read from that snapshot; lseek works on it.
 * With the tracer in the image (trace_on), /sys/kernel/debug/tracing lists
 * its files, served by kernel/trace/tracefs.c with the same struct
 * pseudo_file.
 */
#include <kernel/cmdline.h>
#include <kernel/errno.h>
#include <kernel/file.h>
#include <kernel/fs.h>
#include <kernel/kmalloc.h>
#include <kernel/printk.h>
#include <kernel/procfs.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/trace.h>
#include <kernel/tty.h>
#include <kernel/uaccess.h>

#define KNOB_DIR	"proc/sys/kernel/"
#define SHOW_SIZE	4096		/* a generated file's buffer; sched_debug's below */
#define SCHED_DEBUG_SIZE (64 * 1024)
#define WRITE_MAX	256		/* bytes a write may bring (Linux: a page) */
#define PSEUDO_INO	0x1000		/* inode numbers: PSEUDO_INO + index, knobs above */

int sched_feat_parse(const char *list);
int sched_feat_file_snprint(char *buf, size_t len);

/* ---- devices ---- */

static long null_read(struct file *f, char *ubuf, u32 count) { return 0; }
static long null_write(struct file *f, const char *ubuf, u32 count) { return count; }
static const struct file_ops null_ops = { .read = null_read, .write = null_write };

static struct file *null_open(u32 flags)
{
	return file_alloc(&null_ops, flags);
}

/* ---- generated files ---- */

static size_t version_show(char *buf, size_t size)
{
	return snprintf(buf, size, "Granule version %s (granule@granule) #1 CFS 2.6.35\n",
			GRANULE_VERSION);
}

static size_t features_show(char *buf, size_t size)
{
	size_t n = (size_t)sched_feat_file_snprint(buf, size - 1);

	n = min(n, size - 2);
	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int features_store(const char *val)
{
	return sched_feat_parse(val) ? -EINVAL : 0;
}

static const struct pseudo_file files[] = {
	{ .path = "dev", .mode = S_IFDIR | 0755 },
	{ .path = "dev/console", .mode = S_IFCHR | 0600, .rdev = CONSOLE_RDEV, .open = console_open },
	{ .path = "dev/null", .mode = S_IFCHR | 0666, .rdev = (1 << 8) | 3, .open = null_open },
	{ .path = "dev/tty", .mode = S_IFCHR | 0666, .rdev = (5 << 8) | 0, .open = console_open },
	{ .path = "proc", .mode = S_IFDIR | 0555 },
	{ .path = "proc/cpuinfo", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = arch_cpuinfo_show },
	{ .path = "proc/loadavg", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_loadavg_show },
	{ .path = "proc/lockdep_stats", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_lockdep_stats_show },
	{ .path = "proc/meminfo", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_meminfo_show },
	{ .path = "proc/mounts", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_mounts_show },
	{ .path = "proc/sched_debug", .mode = S_IFREG | 0444, .size = SCHED_DEBUG_SIZE,
	  .show = sched_debug_snprint },
	{ .path = "proc/schedstat", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = sched_schedstat_snprint },
	{ .path = "proc/stat", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_stat_show },
	{ .path = "proc/sys", .mode = S_IFDIR | 0555 },
	{ .path = "proc/sys/kernel", .mode = S_IFDIR | 0555 },
	{ .path = "proc/uptime", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_uptime_show },
	{ .path = "proc/version", .mode = S_IFREG | 0444, .size = SHOW_SIZE, .show = version_show },
	{ .path = "proc/vmstat", .mode = S_IFREG | 0444, .size = SHOW_SIZE,
	  .show = procfs_vmstat_show },
	{ .path = "sys", .mode = S_IFDIR | 0755 },
	{ .path = "tmp", .mode = S_IFDIR | 01777 },	/* listed here, served by tmpfs.c */
	{ .path = "sys/kernel", .mode = S_IFDIR | 0755 },
	{ .path = "sys/kernel/debug", .mode = S_IFDIR | 0700 },
	{ .path = "sys/kernel/debug/sched_features", .mode = S_IFREG | 0644, .size = SHOW_SIZE,
	  .show = features_show, .store = features_store },
};

/* The knobs /proc/sys/kernel shows: the scheduler's, and PI's max_lock_depth. */
static int knob_listed(const struct knob *k)
{
	return (!strncmp(k->name, "sched_", 6) && strcmp(k->name, "sched_features")) ||
	       !strcmp(k->name, "max_lock_depth");
}

static const struct knob *knob_at(int index)
{
	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		if (knob_listed(k) && index-- == 0)
			return k;
	return NULL;
}

static int nr_knobs_listed(void)
{
	int n = 0;

	for (const struct knob *k = __start_knobs; k < __stop_knobs; k++)
		n += knob_listed(k);
	return n;
}

int pseudo_lookup(const char *path, struct fs_node *n)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(files[i].path, path)) {
			n->pf = &files[i];
			n->mode = files[i].mode;
			n->rdev = files[i].rdev;
			n->ino = PSEUDO_INO + i;
			return 0;
		}
	if (!strncmp(path, KNOB_DIR, strlen(KNOB_DIR))) {
		const struct knob *k;
		for (int i = 0; (k = knob_at(i)); i++)
			if (!strcmp(k->name, path + strlen(KNOB_DIR))) {
				n->knob = k;
				n->mode = S_IFREG | 0644;
				n->ino = PSEUDO_INO + ARRAY_SIZE(files) + i;
				return 0;
			}
	}
	if (!sysctl_sd_lookup(path, n))	/* sched_domain/ */
		return 0;
	if (trace_on)			/* only then is the tracer in memory */
		return trace_fs_lookup(path, n);
	return -ENOENT;
}

/* Entry INDEX of pseudo directory DIR ("" = the root's dev, proc, sys). */
int pseudo_dir_entry(const char *dir, int index, char *name, size_t size, u32 *mode, u32 *ino)
{
	size_t dlen = strlen(dir);
	struct fs_node sd_dir;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		const char *p = files[i].path, *rest = p;
		if (dlen) {
			if (strncmp(p, dir, dlen) || p[dlen] != '/')
				continue;
			rest = p + dlen + 1;
		}
		if (strchr(rest, '/') || index-- > 0)
			continue;
		strlcpy(name, rest, size);
		*mode = files[i].mode;
		*ino = PSEUDO_INO + i;
		return 1;
	}
	if (trace_on && !strncmp(dir, "sys/kernel/debug", 16))
		return trace_fs_dir_entry(dir, index, name, size, mode, ino);	/* tracing/ */
	if (!strcmp(dir, "proc"))
		return procfs_dir_entry("", index, name, size, mode, ino);	/* self, PIDs */
	if (!strncmp(dir, "proc/", 5) && dir[5] >= '0' && dir[5] <= '9')
		return procfs_dir_entry(dir + 5, index, name, size, mode, ino);
	int r = sysctl_sd_dir_entry(dir, index, name, size, mode, ino);
	if (r >= 0)
		return r;
	if (strcmp(dir, "proc/sys/kernel"))
		return 0;
	int nk = nr_knobs_listed();
	if (index == nk) {		/* after the knobs, 2.6.35's sched_domain/ */
		if (sysctl_sd_lookup("proc/sys/kernel/sched_domain", &sd_dir))
			return 0;
		strlcpy(name, "sched_domain", size);
		*mode = sd_dir.mode;
		*ino = sd_dir.ino;
		return 1;
	}
	const struct knob *k = index < nk ? knob_at(index) : NULL;
	if (!k)
		return 0;
	strlcpy(name, k->name, size);
	*mode = S_IFREG | 0644;
	*ino = PSEUDO_INO + ARRAY_SIZE(files) + index;
	return 1;
}

/* read() of a generated file: from its snapshot f->buf (f->len bytes). */
long snapshot_read(struct file *f, char *ubuf, u32 count)
{
	if (f->pos >= f->len)
		return 0;
	u32 n = min(count, (u32)(f->len - f->pos));
	if (copy_to_user(ubuf, f->buf + f->pos, n))
		return -EFAULT;
	f->pos += n;
	return n;
}

/* A write: the bytes up to WRITE_MAX, trailing blanks and newline dropped. */
static long text_write(struct file *f, const char *ubuf, u32 count)
{
	const struct fs_node *n = f->node;
	char val[WRITE_MAX + 1];
	u32 len = min(count, (u32)WRITE_MAX);
	int err;

	if (count > WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(val, ubuf, len))
		return -EFAULT;
	val[len] = '\0';
	while (len && (val[len - 1] == '\n' || val[len - 1] == ' ' || val[len - 1] == '\t'))
		val[--len] = '\0';
	if (n->knob) {
		err = knob_write(n->knob, val, "sysctl");	/* 0, -1 or KNOB_BUSY */
		if (err)
			err = err == KNOB_BUSY ? -EBUSY : -EINVAL;
	} else if (n->sd_file)
		err = sd_sysctl_write(SD_FILE_CPU(n->sd_file), SD_FILE_LEVEL(n->sd_file),
				      SD_FILE_FIELD(n->sd_file), val);
	else
		err = n->pf->store(val);
	if (err)
		return err;
	f->pos += count;
	return count;
}

static void text_release(struct file *f)
{
	kfree((void *)f->node);
}

/*
 * read() of a generated file.  Linux's seq_file makes the text at a read
 * from offset 0 - the first, or one after lseek(fd, 0) or a pread at 0 -
 * which is how procps' libproc2 and sysstat re-read /proc/stat, meminfo
 * and vmstat every interval on one open file.  Reads further on continue
 * that snapshot.  A knob's text is made once, at open.
 */
static long show_read(struct file *f, char *ubuf, u32 count)
{
	const struct pseudo_file *pf = ((const struct fs_node *)f->node)->pf;

	if (f->pos == 0 && pf && pf->show) {
		size_t len = pf->show(f->buf, pf->size);	/* once: min() evaluates twice */
		f->len = min(len, (size_t)pf->size);
	}
	return snapshot_read(f, ubuf, count);
}

static const struct file_ops text_ops = {
	.read = show_read, .write = text_write, .release = text_release,
};

/* Open N with FLAGS: a device's own file, or a snapshot of the text. */
int pseudo_open(const struct fs_node *n, u32 flags, struct file **out)
{
	const struct pseudo_file *pf = n->pf;
	int writable = pf ? pf->store != NULL :
		       n->sd_file ? sd_sysctl_writable(SD_FILE_FIELD(n->sd_file)) : 1;
	struct fs_node *copy;
	struct file *f;

	if (pf && pf->open) {
		*out = pf->open(flags);
		return *out ? 0 : -ENOMEM;
	}
	if ((flags & O_ACCMODE) != O_RDONLY && !writable)
		return -EACCES;
	if (pf && pf->trunc && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
		pf->trunc();				/* echo > set_event */
	if (!(copy = kmalloc(sizeof(*copy))))
		return -ENOMEM;
	*copy = *n;
	if (!(f = file_alloc(&text_ops, flags))) {
		kfree(copy);
		return -ENOMEM;
	}
	f->node = copy;
	if ((flags & O_ACCMODE) != O_WRONLY) {
		u32 size = pf ? pf->size : 128;
		if (!(f->buf = kmalloc(size))) {
			fput(f);
			return -ENOMEM;
		}
		if (pf) {
			f->len = 0;		/* made by the first read: show_read() */
		} else if (n->sd_file) {
			struct sched_domain *sd = sd_sysctl_domain(SD_FILE_CPU(n->sd_file),
								   SD_FILE_LEVEL(n->sd_file));
			f->len = sd ? sd_sysctl_show(sd, SD_FILE_FIELD(n->sd_file), f->buf, size) : 0;
		} else {
			knob_show(n->knob, f->buf, size - 1);
			f->len = strlen(f->buf);
			f->buf[f->len++] = '\n';
		}
		f->len = min(f->len, size);
	}
	*out = f;
	return 0;
}
