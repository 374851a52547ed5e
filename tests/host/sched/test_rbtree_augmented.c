/*
 * tests/host/sched/test_rbtree_augmented.c - kernel/lib/rbtree_augmented.c:
 * random inserts and erases of items keyed by KEY carrying VAL, with the
 * augmented value MIN = min(VAL over the subtree) (EEVDF's min_vruntime
 * in miniature).  After every operation: rb_check() holds, every node's
 * MIN equals a brute-force recomputation, and the compute callback was
 * called O(log n) times.  Also rb_augment_propagate() after an in-place
 * change of one VAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kernel/rbtree_augmented.h>

struct item {
	struct rb_node node;
	int key, val, min;
	int in;
};

#define N 500

static struct item items[N];
static struct rb_root root;
static unsigned long computes;

static u32 rng = 4242;
static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static bool compute(struct rb_node *n)
{
	struct item *it = rb_entry(n, struct item, node);
	int old = it->min;

	computes++;
	it->min = it->val;
	if (n->rb_left && rb_entry(n->rb_left, struct item, node)->min < it->min)
		it->min = rb_entry(n->rb_left, struct item, node)->min;
	if (n->rb_right && rb_entry(n->rb_right, struct item, node)->min < it->min)
		it->min = rb_entry(n->rb_right, struct item, node)->min;
	return it->min == old;
}

/* Brute force: the true subtree minimum; counts nodes with a stale MIN. */
static int check(struct rb_node *n, int *min, int *stale)
{
	struct item *it;
	int m, c;

	if (!n)
		return 0;
	it = rb_entry(n, struct item, node);
	m = it->val;
	if (n->rb_left) {
		check(n->rb_left, &c, stale);
		m = c < m ? c : m;
	}
	if (n->rb_right) {
		check(n->rb_right, &c, stale);
		m = c < m ? c : m;
	}
	if (it->min != m)
		(*stale)++;
	*min = m;
	return 0;
}

static void insert(struct item *it)
{
	struct rb_node **link = &root.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (it->key < rb_entry(parent, struct item, node)->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	it->min = it->val;
	rb_link_node(&it->node, parent, link);
	rb_insert_augmented(&it->node, &root, compute);
	it->in = 1;
}

static void verify(int n)
{
	int min, stale = 0;

	assert_int_equal(rb_check(&root), n);
	check(root.rb_node, &min, &stale);
	assert_int_equal(stale, 0);
}

static void test_random_ops(void **state)
{
	int n = 0;
	unsigned long max_computes = 0;

	for (int op = 0; op < 20000; op++) {
		struct item *it = &items[rnd() % N];
		unsigned long before = computes;

		if (!it->in) {
			it->key = (int)(rnd() % 1000);	/* duplicates included */
			it->val = (int)(rnd() % 100000) - 50000;
			insert(it);
			n++;
		} else if (rnd() % 4) {
			rb_erase_augmented(&it->node, &root, compute);
			it->in = 0;
			n--;
		} else {
			it->val = (int)(rnd() % 100000) - 50000;	/* in place */
			rb_augment_propagate(&it->node, compute);
		}
		verify(n);
		if (computes - before > max_computes)
			max_computes = computes - before;
	}
	/* at most 3 computes per level of a tree of height <= 2 log2(N + 1) */
	assert_true(max_computes <= 3 * 18 + 3);
	assert_true(n > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
