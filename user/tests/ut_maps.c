/*
 * user/tests/ut_maps.c - /proc/PID/maps as 2.6.35's show_map_vma() prints it
 * (kernel/fs/procfs_maps.c):
 *   maps_format  every line of our own maps is exactly what 2.6.35's format
 *                string and pad_len_spaces() make of its fields (the name at
 *                column 49), page aligned, in address order, none overlapping
 *   maps_lines   which line shows what: our code (r-xp, /bin/usertests and its
 *                inode), a file mapped at page offset 1 (r--p 00001000, its
 *                device and inode), three anonymous pages split by mprotect
 *                into rw-p/---p/rw-p lines and merged again when made alike,
 *                the [heap] up to brk, the [stack] under 0xc0000000, the [vdso]
 *   maps_many    300 areas: the file is whole (Linux's seq_file grows; a fixed
 *                snapshot would cut it), its last line the [stack]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ut.h"

#define AT_SYSINFO_EHDR	33
#define MAPS_MAX	(64 * 1024)

struct map {
	uint32_t start, end, pgoff, major, minor, ino;
	char perms[5], name[96];
};

/* /proc/self/maps, whole, into a buffer of its own (free it). */
static char *read_maps(long *len)
{
	char *buf = malloc(MAPS_MAX);

	CHECK(buf, "malloc");
	*len = ut_slurp("/proc/self/maps", buf, MAPS_MAX);
	CHECK(*len > 0 && *len < MAPS_MAX - 1, "read /proc/self/maps: %ld", *len);
	return buf;
}

/* LINE (no newline) parsed into *M; checks it is what 2.6.35 prints for *M. */
static void parse_line(const char *line, struct map *m)
{
	char again[160];
	int len;

	char *p;

	*m = (struct map){ 0 };
	m->start = strtoul(line, &p, 16);
	CHECK(*p == '-', "maps line: %s", line);
	m->end = strtoul(p + 1, &p, 16);
	CHECK(*p == ' ' && strlen(p) > 6 && p[5] == ' ', "maps line: %s", line);
	memcpy(m->perms, p + 1, 4);
	m->pgoff = strtoul(p + 6, &p, 16);
	m->major = strtoul(p, &p, 16);
	CHECK(*p == ':', "maps line: %s", line);
	m->minor = strtoul(p + 1, &p, 16);
	m->ino = strtoul(p, &p, 10);
	CHECK(*p == ' ', "maps line: %s", line);
	while (*p == ' ')
		p++;
	strncpy(m->name, p, sizeof(m->name) - 1);
	/* show_map_vma: "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu %n", then a
	 * name padded to column 25 + 6 * sizeof(void *) = 49 */
	len = snprintf(again, sizeof(again), "%08x-%08x %s %08x %02x:%02x %u ", m->start, m->end,
		       m->perms, m->pgoff, m->major, m->minor, m->ino);
	if (m->name[0])
		snprintf(again + len, sizeof(again) - len, "%*c%s", 49 - len > 1 ? 49 - len : 1, ' ',
			 m->name);
	CHECK(!strcmp(again, line), "maps line \"%s\", 2.6.35 prints \"%s\"", line, again);
}

/* The line of our maps holding ADDR into *M; 0 if none does. */
static int line_of(uint32_t addr, struct map *m)
{
	long len;
	char *buf = read_maps(&len), *line = buf, *nl;
	int found = 0;

	for (; !found && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		parse_line(line, m);
		found = addr >= m->start && addr < m->end;
	}
	free(buf);
	return found;
}

/* PATH's device minor and inode (struct stat64: st_dev at 0, __st_ino at 12). */
static void dev_ino(const char *path, uint32_t *minor, uint32_t *ino)
{
	uint32_t st[24];

	EXPECT_RET(sys_stat64((long)path, (long)st), 0);
	*minor = st[0] & 0xff;
	*ino = st[3];
}

static void maps_format(void)
{
	long len;
	char *buf = read_maps(&len), *line = buf, *nl;
	uint32_t last_end = 0;
	int lines = 0;
	struct map m;

	CHECK(buf[len - 1] == '\n', "maps does not end with a newline");
	for (; (nl = strchr(line, '\n')); line = nl + 1, lines++) {
		*nl = '\0';
		parse_line(line, &m);
		CHECK(!(m.start & 4095) && !(m.end & 4095) && m.start < m.end, "%s", line);
		CHECK(m.start >= last_end, "out of order or overlapping: %s", line);
		CHECK(m.perms[3] == 'p', "a shared mapping: %s", line);
		last_end = m.end;
	}
	CHECK(lines >= 4, "only %d lines", lines);
	free(buf);
}

static void file_and_code(void)
{
	uint32_t minor, ino;
	struct map m;

	dev_ino("/bin/usertests", &minor, &ino);
	CHECK(line_of((uint32_t)(uintptr_t)file_and_code, &m), "no line holds our code");
	CHECK(!strcmp(m.perms, "r-xp") && !strcmp(m.name, "/bin/usertests") && m.ino == ino &&
	      m.major == 0 && m.minor == minor, "our code: %s %08x %u %s", m.perms, m.pgoff, m.ino, m.name);

	dev_ino("/bin/hello", &minor, &ino);
	long fd = sys_open((long)"/bin/hello", O_RDONLY, 0);
	long q = sys_mmap2(0, 2 * PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 1);
	CHECK(MAPPED(q), "mmap2 /bin/hello at page 1: %ld", q);
	CHECK(line_of((uint32_t)q, &m) && m.start == (uint32_t)q && m.end == (uint32_t)q + 2 * PAGE_SIZE &&
	      !strcmp(m.perms, "r--p") && m.pgoff == PAGE_SIZE && m.ino == ino && m.minor == minor &&
	      !strcmp(m.name, "/bin/hello"),
	      "the file's line: %08x-%08x %s %08x %02x:%02x %u %s", m.start, m.end, m.perms, m.pgoff,
	      m.major, m.minor, m.ino, m.name);
	EXPECT_RET(sys_munmap(q, 2 * PAGE_SIZE), 0);
	sys_close(fd);
}

static void anon_split_and_merged(void)
{
	long p = sys_mmap2(0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0);
	uint32_t a = (uint32_t)p;
	struct map m;

	CHECK(MAPPED(p), "mmap2: %ld", p);
	EXPECT_RET(sys_mprotect(p + PAGE_SIZE, PAGE_SIZE, PROT_NONE), 0);
	CHECK(line_of(a, &m) && m.end == a + PAGE_SIZE && !strcmp(m.perms, "rw-p") && !m.ino &&
	      !m.pgoff && !m.name[0], "below the hole: %08x-%08x %s %s", m.start, m.end, m.perms, m.name);
	CHECK(line_of(a + PAGE_SIZE, &m) && m.start == a + PAGE_SIZE && m.end == a + 2 * PAGE_SIZE &&
	      !strcmp(m.perms, "---p"), "the hole: %08x-%08x %s", m.start, m.end, m.perms);
	CHECK(line_of(a + 2 * PAGE_SIZE, &m) && m.start == a + 2 * PAGE_SIZE && !strcmp(m.perms, "rw-p"),
	      "above the hole: %08x-%08x %s", m.start, m.end, m.perms);
	/* made alike again, vma_merge() would make one area of the three */
	EXPECT_RET(sys_mprotect(p + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	CHECK(line_of(a, &m) && m.start <= a && m.end >= a + 3 * PAGE_SIZE && !strcmp(m.perms, "rw-p"),
	      "merged: %08x-%08x %s", m.start, m.end, m.perms);
	EXPECT_RET(sys_munmap(p, 3 * PAGE_SIZE), 0);
}

static void heap_stack_vdso(void)
{
	uint32_t brk = (uint32_t)sys_brk(0), top;
	volatile char local = 1;
	struct map m;

	top = (uint32_t)sys_brk(brk + 3 * PAGE_SIZE);
	CHECK(top == brk + 3 * PAGE_SIZE, "brk +3 pages: %x -> %x", brk, top);
	*(volatile char *)(uintptr_t)(top - 1) = 1;
	CHECK(line_of(top - 1, &m) && !strcmp(m.name, "[heap]") && m.end == ((top + 4095) & ~4095u) &&
	      !strcmp(m.perms, "rw-p"), "the heap: %08x-%08x %s %s", m.start, m.end, m.perms, m.name);
	sys_brk(brk);
	CHECK(line_of((uint32_t)(uintptr_t)&local, &m) && !strcmp(m.name, "[stack]") &&
	      m.end == 0xc0000000u && local, "the stack: %08x-%08x %s", m.start, m.end, m.name);
	if (ut_aux(AT_SYSINFO_EHDR))
		CHECK(line_of(ut_aux(AT_SYSINFO_EHDR), &m) && !strcmp(m.name, "[vdso]"),
		      "the vdso: %08x-%08x %s", m.start, m.end, m.name);
}

static void maps_lines(void)
{
	file_and_code();
	anon_split_and_merged();
	heap_stack_vdso();
}

static void maps_many(void)
{
	enum { N = 300 };
	long p = sys_mmap2(0, 2 * N * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANON, -1, 0), len;
	int lines = 0;

	CHECK(MAPPED(p), "mmap2: %ld", p);
	for (int i = 0; i < N; i++)	/* every other page writable: 2N areas no merge joins */
		EXPECT_RET(sys_mprotect(p + (2 * i + 1) * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	char *buf = read_maps(&len);
	for (char *c = buf; *c; c++)
		lines += *c == '\n';
	CHECK(lines > 2 * N, "%d lines for %d areas", lines, 2 * N);
	CHECK(len > 9 && !strcmp(buf + len - 8, "[stack]\n"), "the last line: %.60s",
	      buf + (len > 60 ? len - 60 : 0));
	free(buf);
	EXPECT_RET(sys_munmap(p, 2 * N * PAGE_SIZE), 0);
}

const struct ut_test ut_maps_tests[] = {
	{ maps_format, "maps_format" },
	{ maps_lines, "maps_lines" },
	{ maps_many, "maps_many" },
	{ NULL, NULL },
};
