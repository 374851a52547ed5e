/*
 * tests/host/sched/test_rbtree.c - kernel/lib/rbtree.c against a sorted
 * reference: random inserts (duplicates included, equal keys to the right)
 * and erases, checking after every operation that rb_check() holds, the
 * in-order walk (rb_first/rb_next and rb_last/rb_prev) equals the
 * reference, and the tree height stays within 2*log2(n+1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kernel/rbtree.h>

struct item {
	struct rb_node node;
	int key;
	int seq;	/* insertion order, to check FIFO among equal keys */
	int in;
};

#define N 600

static struct item items[N];
static struct rb_root root;
static int ref[N], nref;	/* indexes of inserted items, in tree order */

static u32 rng = 12345;
static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void insert(struct item *it)
{
	struct rb_node **link = &root.rb_node, *parent = NULL;
	int pos;

	while (*link) {
		parent = *link;
		if (it->key < rb_entry(parent, struct item, node)->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->node, parent, link);
	rb_insert_color(&it->node, &root);
	it->in = 1;

	/* reference: after every key <= it->key */
	for (pos = 0; pos < nref && items[ref[pos]].key <= it->key; pos++)
		;
	memmove(&ref[pos + 1], &ref[pos], (size_t)(nref - pos) * sizeof(int));
	ref[pos] = (int)(it - items);
	nref++;
}

static void erase(struct item *it)
{
	int pos;

	rb_erase(&it->node, &root);
	it->in = 0;
	assert_true(RB_EMPTY_NODE(&it->node));
	for (pos = 0; ref[pos] != (int)(it - items); pos++)
		;
	memmove(&ref[pos], &ref[pos + 1], (size_t)(nref - pos - 1) * sizeof(int));
	nref--;
}

static int height(const struct rb_node *n)
{
	int l, r;

	if (!n)
		return 0;
	l = height(n->rb_left);
	r = height(n->rb_right);
	return 1 + (l > r ? l : r);
}

static void check(void)
{
	struct rb_node *n;
	int i, lim = 0;

	assert_int_equal(rb_check(&root), nref);
	for (i = 0, n = rb_first(&root); n; n = rb_next(n), i++)
		assert_int_equal(rb_entry(n, struct item, node) - items, ref[i]);
	assert_int_equal(i, nref);
	for (i = nref - 1, n = rb_last(&root); n; n = rb_prev(n), i--)
		assert_int_equal(rb_entry(n, struct item, node) - items, ref[i]);
	assert_int_equal(i, -1);
	while ((1 << lim) < nref + 1)
		lim++;
	assert_true(height(root.rb_node) <= 2 * lim);
}

static void test_random_ops(void **state)
{
	root = RB_ROOT;
	nref = 0;
	for (int i = 0; i < N; i++) {
		items[i].key = (int)(rnd() % 50);	/* many duplicates */
		items[i].seq = i;
		items[i].in = 0;
	}
	for (int round = 0; round < 20000; round++) {
		struct item *it = &items[rnd() % N];

		if (it->in)
			erase(it);
		else
			insert(it);
		if (round % 7 == 0 || nref < 20)
			check();
	}
	check();
	/* equal keys are in insertion order among items inserted once */
	while (nref)
		erase(&items[ref[rnd() % (u32)nref]]), check();
	assert_null(rb_first(&root));
	assert_null(rb_last(&root));
}

static void test_sequential(void **state)
{
	root = RB_ROOT;
	nref = 0;
	for (int i = 0; i < N; i++) {
		items[i].key = i;
		insert(&items[i]);
	}
	check();
	for (int i = 0; i < N; i += 2)
		erase(&items[i]);
	check();
	for (int i = N - 1; i >= 0; i -= 2)
		erase(&items[i]);
	check();
	assert_true(RB_EMPTY_ROOT(&root));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
		cmocka_unit_test(test_sequential),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
