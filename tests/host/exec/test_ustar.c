/*
 * tests/host/exec/test_ustar.c - the in-memory ustar reader
 * (kernel/lib/ustar.c) on archives made by tools/mkinitrd (the real
 * build/initrd.tar and archives made at run time), by Python's tarfile
 * (GNU magic, directories, prefix-split names), and on truncated and
 * corrupted copies of them.  Every archive is passed in a heap buffer of
 * exactly its length, so ASan catches any read past the end.
 *
 * REPO_DIR and INITRD_PATH are absolute paths given by tests/host/exec/rules.mk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <kernel/ustar.h>
#include <kernel/errno.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static char tmpdir[256];

static u8 *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static u8 *dup_exact(const u8 *src, size_t len)
{
	u8 *p = malloc(len ? len : 1);

	memcpy(p, src, len);
	return p;
}

/* ustar_find on an exact-size copy of the first LEN bytes. */
static int find_in(const u8 *ar, size_t len, const char *name, size_t *size,
		   size_t *data_off)
{
	u8 *copy = dup_exact(ar, len);
	const void *data = NULL;
	size_t sz = 0;
	int ret = ustar_find(copy, len, name, &data, &sz);

	if (ret == 0) {
		assert_true((const u8 *)data >= copy && (const u8 *)data + sz <= copy + len);
		if (size)
			*size = sz;
		if (data_off)
			*data_off = (size_t)((const u8 *)data - copy);
	}
	free(copy);
	return ret;
}

/* Recompute a header's checksum after a deliberate field change. */
static void fix_checksum(u8 *h)
{
	unsigned int sum = 0;

	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

static int group_setup(void **state)
{
	strcpy(tmpdir, "/tmp/granule-ustar-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* ---- the real initrd ---- */
static void test_real_initrd(void **state)
{
	static const char *progs[] = { "bin/hello", "bin/init", "bin/ulibtest" };
	struct ustar_iter it;
	struct ustar_entry e;
	size_t len, n = 0;
	u8 *ar = read_file(INITRD_PATH, &len);
	u8 *copy = dup_exact(ar, len);
	char prev[USTAR_NAME_MAX] = "";

	for (size_t i = 0; i < NELEM(progs); i++) {
		char path[600];
		size_t flen, size, off;
		u8 *elf;

		snprintf(path, sizeof(path), "%s/build/user/%s.elf", REPO_DIR, progs[i] + 4);
		elf = read_file(path, &flen);
		assert_int_equal(find_in(ar, len, progs[i], &size, &off), 0);
		assert_int_equal(size, flen);
		assert_memory_equal(ar + off, elf, flen);
		assert_int_equal(off % 512, 0);
		free(elf);
		/* "/bin/hello" and "./bin/hello" name the same member. */
		snprintf(path, sizeof(path), "/%s", progs[i]);
		assert_int_equal(find_in(ar, len, path, NULL, NULL), 0);
		snprintf(path, sizeof(path), "./%s", progs[i]);
		assert_int_equal(find_in(ar, len, path, NULL, NULL), 0);
	}
	assert_int_equal(find_in(ar, len, "bin/hell", NULL, NULL), -ENOENT);
	assert_int_equal(find_in(ar, len, "bin/hello.elf", NULL, NULL), -ENOENT);
	assert_int_equal(find_in(ar, len, "hello", NULL, NULL), -ENOENT);	/* programs live in bin/ */
	assert_int_equal(find_in(ar, len, "", NULL, NULL), -ENOENT);

	/* Deterministic headers: sorted names, 0755, uid/gid/mtime 0; the
	 * directories (bin/, etc/, usr/lib/granule/kbuild/ ...) before their
	 * files, the links to "busybox" (its applets) and usertests' bin/ut-*
	 * links. */
	ustar_iter_init(&it, copy, len);
	while (ustar_next(&it, &e) == 1) {
		const u8 *h = (const u8 *)e.data - 512;

		assert_true(strcmp(prev, e.name) < 0);
		strcpy(prev, e.name);
		assert_int_equal(e.mode, 0755);
		if (e.name[strlen(e.name) - 1] == '/')
			assert_int_equal(e.type, USTAR_DIR);
		else if (e.type == USTAR_SYMLINK && strncmp(e.name, "bin/ut-", 7) != 0)
			assert_string_equal(e.linkname, "busybox");
		else if (e.type == USTAR_SYMLINK)	/* usertests' exec_paths links */
			assert_true(e.linkname[0] != '\0');
		else
			assert_int_equal(e.type, USTAR_REG);
		assert_memory_equal(h + 108, "0000000", 8);	/* uid */
		assert_memory_equal(h + 116, "0000000", 8);	/* gid */
		assert_memory_equal(h + 136, "00000000000", 12);	/* mtime */
		assert_memory_equal(h + 257, "ustar\0" "00", 8);
		n++;
	}
	assert_true(n >= NELEM(progs));	/* the image has more programs and data files */
	free(copy);
	free(ar);
}

/* ---- archives made here with tools/mkinitrd ---- */
static const size_t sizes[] = { 0, 1, 511, 512, 513, 4103 };

static u8 *make_sized_archive(size_t *len, const char *order)
{
	char args[2048] = "", path[512], out[512];

	for (size_t i = 0; i < NELEM(sizes); i++) {
		u8 *data = malloc(sizes[i] + 1);

		for (size_t b = 0; b < sizes[i]; b++)
			data[b] = (u8)(i * 37 + b);
		snprintf(path, sizeof(path), "%s/m%zu.elf", tmpdir, sizes[i]);
		write_file(path, data, sizes[i]);
		free(data);
	}
	for (size_t k = 0; k < NELEM(sizes); k++) {
		size_t i = order[0] == 'r' ? NELEM(sizes) - 1 - k : k;

		snprintf(path, sizeof(path), " %s/m%zu.elf", tmpdir, sizes[i]);
		strcat(args, path);
	}
	snprintf(out, sizeof(out), "%s/sized-%s.tar", tmpdir, order);
	assert_int_equal(run("%s/tools/mkinitrd -o %s%s", REPO_DIR, out, args), 0);
	return read_file(out, len);
}

static void test_member_sizes(void **state)
{
	size_t len;
	u8 *ar = make_sized_archive(&len, "fwd");

	for (size_t i = 0; i < NELEM(sizes); i++) {
		char name[32];
		size_t size = 99, off;

		snprintf(name, sizeof(name), "m%zu", sizes[i]);
		assert_int_equal(find_in(ar, len, name, &size, &off), 0);
		assert_int_equal(size, sizes[i]);
		for (size_t b = 0; b < size; b++)
			assert_int_equal(ar[off + b], (u8)(i * 37 + b));
	}
	free(ar);
}

/* Directories, weak symbolic links and @argument files. */
static void test_mkinitrd_dirs_and_links(void **state)
{
	char out[512], argf[512];
	const char *want[][3] = {	/* name, type, link */
		{ "bin/", "5", "" }, { "bin/a", "0", "" }, { "bin/l", "2", "a" },
		{ "bin/sub/", "5", "" }, { "bin/sub/b", "0", "" },
	};
	struct ustar_iter it;
	struct ustar_entry e;
	size_t len, n = 0;
	u8 *ar;

	snprintf(argf, sizeof(argf), "%s/links.args", tmpdir);
	write_file(argf, "bin/l->a\nbin/a->nosuch\n", strlen("bin/l->a\nbin/a->nosuch\n"));	/* bin/a: the file wins */
	snprintf(out, sizeof(out), "%s/links.tar", tmpdir);
	assert_int_equal(run("%s/tools/mkinitrd -o %s bin/a=%s/m1.elf bin/sub/b=%s/m512.elf @%s",
			     REPO_DIR, out, tmpdir, tmpdir, argf), 0);
	ar = read_file(out, &len);
	ustar_iter_init(&it, ar, len);
	while (ustar_next(&it, &e) == 1) {
		assert_true(n < NELEM(want));
		assert_string_equal(e.name, want[n][0]);	/* directories keep their '/' */
		assert_int_equal(e.type, want[n][1][0]);
		assert_string_equal(e.linkname, want[n][2]);
		n++;
	}
	assert_int_equal(n, NELEM(want));
	/* a bad link argument is refused */
	assert_int_not_equal(run("%s/tools/mkinitrd -o %s/bad.tar '/abs->x' 2>/dev/null", REPO_DIR, tmpdir), 0);
	free(ar);
}

static void test_mkinitrd_deterministic(void **state)
{
	size_t l1, l2;
	u8 *a1 = make_sized_archive(&l1, "fwd"), *a2;

	/* Other argument order, other mtimes and modes: the same bytes. */
	assert_int_equal(run("touch -d '2001-02-03' %s/m1.elf && chmod 600 %s/m512.elf",
			     tmpdir, tmpdir), 0);
	a2 = make_sized_archive(&l2, "rev");
	assert_int_equal(l1, l2);
	assert_memory_equal(a1, a2, l1);
	/* Python's tarfile reads it back. */
	assert_int_equal(run("/usr/bin/python3 -c \"import tarfile,sys; "
			     "t=tarfile.open(sys.argv[1]); "
			     "assert sorted(t.getnames())==t.getnames(); "
			     "assert all(m.mtime==0 and m.uid==0 and m.mode==0o755 for m in t)\" "
			     "%s/sized-rev.tar", tmpdir), 0);
	/* A name given twice is an error. */
	assert_int_not_equal(run("%s/tools/mkinitrd -o %s/dup.tar %s/m1.elf x/m1.elf 2>/dev/null",
				 REPO_DIR, tmpdir, tmpdir), 0);
	free(a1);
	free(a2);
}

/* Every truncation: members wholly inside are found, the cut one is -EINVAL. */
static void test_truncated(void **state)
{
	size_t len, hdr_off[NELEM(sizes)], data_end[NELEM(sizes)];
	u8 *ar = make_sized_archive(&len, "fwd");
	char names[NELEM(sizes)][32];

	/* Members are sorted by name: m0 m1 m4103 m511 m512 m513. */
	for (size_t i = 0; i < NELEM(sizes); i++) {
		size_t size, off;

		snprintf(names[i], sizeof(names[i]), "m%zu", sizes[i]);
		assert_int_equal(find_in(ar, len, names[i], &size, &off), 0);
		hdr_off[i] = off - 512;
		data_end[i] = off + size;
	}
	for (size_t cut = 0; cut < len; cut++) {
		for (size_t i = 0; i < NELEM(sizes); i++) {
			int want, got = find_in(ar, cut, names[i], NULL, NULL);
			int damaged = 0;

			/* Is any member before (or at) i cut mid-header or mid-data? */
			for (size_t j = 0; j < NELEM(sizes); j++)
				if (hdr_off[j] <= hdr_off[i] && cut > hdr_off[j] &&
				    cut < data_end[j])
					damaged = 1;
			if (cut >= data_end[i])
				want = 0;
			else if (damaged)
				want = -EINVAL;
			else
				want = -ENOENT;	/* cut cleanly before its header */
			if (got != want)
				fail_msg("cut at %zu, %s: got %d want %d", cut, names[i], got, want);
		}
	}
	free(ar);
}

static void test_corrupted_headers(void **state)
{
	size_t len, off;
	u8 *ar = make_sized_archive(&len, "fwd"), *bad;
	size_t h;	/* header offset of "m511", the 4th member */

	assert_int_equal(find_in(ar, len, "m511", NULL, &off), 0);
	h = off - 512;

	/* Checksum mismatch: one name byte changed, checksum not updated. */
	bad = dup_exact(ar, len);
	bad[h + 1] ^= 0x20;
	assert_int_equal(find_in(bad, len, "m0", NULL, NULL), 0);	/* before: fine */
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	assert_int_equal(find_in(bad, len, "m513", NULL, NULL), -EINVAL);	/* after */
	free(bad);

	/* Non-octal checksum field. */
	bad = dup_exact(ar, len);
	bad[h + 150] = '9';
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	free(bad);

	/* Size field: a non-octal digit, trailing garbage, empty, base-256. */
	static const char *bad_sizes[] = { "0000000078x", "00000000777z", "", "           " };
	for (size_t i = 0; i < NELEM(bad_sizes); i++) {
		bad = dup_exact(ar, len);
		memset(bad + h + 124, 0, 12);
		memcpy(bad + h + 124, bad_sizes[i], strlen(bad_sizes[i]));
		fix_checksum(bad + h);
		assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
		free(bad);
	}
	bad = dup_exact(ar, len);
	bad[h + 124] = (char)0x80;			/* GNU base-256 */
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	free(bad);

	/* A size running past the archive (8 GiB, and just 1 byte too many). */
	bad = dup_exact(ar, len);
	memcpy(bad + h + 124, "77777777777", 11);
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	free(bad);
	bad = dup_exact(ar, len);
	snprintf((char *)bad + h + 124, 12, "%011zo", len - h - 512 + 1);
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	free(bad);

	/* A size that is valid but wrong shifts the next header: caught there. */
	bad = dup_exact(ar, len);
	snprintf((char *)bad + h + 124, 12, "%011o", 512 + 5);	/* 2 blocks, not 1 */
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), 0);
	assert_int_equal(find_in(bad, len, "m512", NULL, NULL), -EINVAL);
	free(bad);

	/* Bad magic (checksum fixed, so only the magic is wrong). */
	bad = dup_exact(ar, len);
	memcpy(bad + h + 257, "ustaR", 5);
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), -EINVAL);
	free(bad);

	/* Leading spaces and a space terminator in numbers are accepted. */
	bad = dup_exact(ar, len);
	memcpy(bad + h + 124, "   00000777 ", 12);
	fix_checksum(bad + h);
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), 0);
	free(bad);

	/* Old-tar signed checksum (a byte >= 0x80 in the name). */
	bad = dup_exact(ar, len);
	bad[h + 90] = 0xE9;
	{
		int sum = 0;

		memset(bad + h + 148, ' ', 8);
		for (int i = 0; i < 512; i++)
			sum += (signed char)bad[h + i];
		snprintf((char *)bad + h + 148, 8, "%06o", sum);
	}
	assert_int_equal(find_in(bad, len, "m511", NULL, NULL), 0);
	free(bad);
	free(ar);
}

static void test_garbage_and_empty(void **state)
{
	u8 zero[1024] = { 0 }, *g;
	const void *data;
	size_t size;
	struct ustar_iter it;
	struct ustar_entry e;
	u32 x = 1;

	assert_int_equal(ustar_find(NULL, 0, "x", &data, &size), -ENOENT);
	assert_int_equal(find_in(zero, 0, "x", NULL, NULL), -ENOENT);
	assert_int_equal(find_in(zero, sizeof(zero), "x", NULL, NULL), -ENOENT);
	assert_int_equal(find_in(zero, 100, "x", NULL, NULL), -EINVAL);	/* partial block */

	g = malloc(8192);
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 8192; i++) {
			x ^= x << 13; x ^= x >> 17; x ^= x << 5;
			g[i] = (u8)x;
		}
		assert_int_equal(find_in(g, 8192 - (size_t)round, "x", NULL, NULL), -EINVAL);
	}
	free(g);

	/* The iterator stays finished after an error. */
	g = dup_exact(zero, 100);
	ustar_iter_init(&it, g, 100);
	assert_int_equal(ustar_next(&it, &e), -EINVAL);
	assert_int_equal(ustar_next(&it, &e), 0);
	free(g);
}

/* Python tarfile archives: GNU magic, a directory, a prefix-split name. */
static void test_tarfile_compat(void **state)
{
	char out[512];
	size_t len, size;
	u8 *ar;
	struct ustar_iter it;
	struct ustar_entry e;
	int dirs = 0;

	snprintf(out, sizeof(out), "%s/py.tar", tmpdir);
	assert_int_equal(run("/usr/bin/python3 - %s <<'EOF'\n"
		"import io, sys, tarfile\n"
		"def add(t, name, data, typ=tarfile.REGTYPE):\n"
		"    i = tarfile.TarInfo(name); i.size = len(data); i.type = typ\n"
		"    t.addfile(i, io.BytesIO(data) if data else None)\n"
		"with tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT) as t:\n"
		"    add(t, 'bin', b'', tarfile.DIRTYPE)\n"
		"    add(t, 'bin/' + 'd' * 60 + '/' + 'f' * 60, b'long name')\n"
		"    add(t, './dot/file', b'dot')\n"
		"EOF", out), 0);
	/* GNU magic "ustar  "; the long name became a ././@LongLink member,
	 * which the reader reports as a non-regular entry and find skips. */
	ar = read_file(out, &len);
	assert_int_equal(find_in(ar, len, "dot/file", &size, NULL), 0);
	assert_int_equal(size, 3);
	free(ar);

	assert_int_equal(run("/usr/bin/python3 - %s <<'EOF'\n"
		"import io, sys, tarfile\n"
		"with tarfile.open(sys.argv[1], 'w', format=tarfile.USTAR_FORMAT) as t:\n"
		"    i = tarfile.TarInfo('bin'); i.type = tarfile.DIRTYPE; t.addfile(i)\n"
		"    n = 'bin/' + 'd' * 60 + '/' + 'f' * 60; d = b'long name'\n"
		"    i = tarfile.TarInfo(n); i.size = len(d); t.addfile(i, io.BytesIO(d))\n"
		"EOF", out), 0);
	ar = read_file(out, &len);
	assert_int_equal(find_in(ar, len, "bin/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd/"
				 "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
				 &size, NULL), 0);
	assert_int_equal(size, 9);
	assert_int_equal(find_in(ar, len, "bin", NULL, NULL), -ENOENT);	/* a directory */
	{
		u8 *copy = dup_exact(ar, len);

		ustar_iter_init(&it, copy, len);
		while (ustar_next(&it, &e) == 1)
			dirs += e.type == USTAR_DIR;
		free(copy);
	}
	assert_int_equal(dirs, 1);
	free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_initrd),
		cmocka_unit_test(test_member_sizes),
		cmocka_unit_test(test_mkinitrd_deterministic),
		cmocka_unit_test(test_mkinitrd_dirs_and_links),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted_headers),
		cmocka_unit_test(test_garbage_and_empty),
		cmocka_unit_test(test_tarfile_compat),
	};

	return cmocka_run_group_tests_name("exec_ustar", tests, group_setup, group_teardown);
}
