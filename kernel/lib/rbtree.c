/*
 * kernel/lib/rbtree.c - red-black tree rebalancing (see <kernel/rbtree.h>).
 *
 * The algorithms are the textbook ones (Cormen et al., "Introduction to
 * Algorithms", ch. 13) with NULL standing for the black leaves, so the
 * erase fix-up carries the parent of the (possibly NULL) node it repairs.
 *
 * Used by the CFS runqueue (kernel/sched/fair.c): one tree per cfs_rq,
 * keyed by vruntime - min_vruntime.
 */
#include <kernel/rbtree.h>

static inline bool is_red(const struct rb_node *n)
{
	return n && n->rb_color == RB_RED;
}

static inline bool is_black(const struct rb_node *n)
{
	return !n || n->rb_color == RB_BLACK;	/* NULL leaves are black */
}

/* Make NEW take OLD's place under PARENT (or as the root). */
static void replace_child(struct rb_node *parent, struct rb_node *old,
			  struct rb_node *new, struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 *      x                y
 *     / \              / \
 *    a   y    ==>     x   c
 *       / \          / \
 *      b   c        a   b
 */
static void rotate_left(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->rb_right;

	x->rb_right = y->rb_left;
	if (y->rb_left)
		y->rb_left->rb_parent = x;
	y->rb_parent = x->rb_parent;
	replace_child(x->rb_parent, x, y, root);
	y->rb_left = x;
	x->rb_parent = y;
}

/* The mirror image of rotate_left(). */
static void rotate_right(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->rb_left;

	x->rb_left = y->rb_right;
	if (y->rb_right)
		y->rb_right->rb_parent = x;
	y->rb_parent = x->rb_parent;
	replace_child(x->rb_parent, x, y, root);
	y->rb_right = x;
	x->rb_parent = y;
}

/*
 * NODE was just linked in red.  The only possible violation is a red
 * parent (invariant 2).  Case 1: red uncle - recolour and move the problem
 * two levels up.  Cases 2/3: black uncle - at most two rotations end it.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle;

	while ((parent = node->rb_parent) && is_red(parent)) {
		gparent = parent->rb_parent;	/* exists: the root is black */

		if (parent == gparent->rb_left) {
			uncle = gparent->rb_right;
			if (is_red(uncle)) {			/* case 1 */
				uncle->rb_color = RB_BLACK;
				parent->rb_color = RB_BLACK;
				gparent->rb_color = RB_RED;
				node = gparent;
				continue;
			}
			if (node == parent->rb_right) {		/* case 2 */
				rotate_left(parent, root);
				node = parent;
				parent = node->rb_parent;
			}
			parent->rb_color = RB_BLACK;		/* case 3 */
			gparent->rb_color = RB_RED;
			rotate_right(gparent, root);
		} else {
			uncle = gparent->rb_left;
			if (is_red(uncle)) {
				uncle->rb_color = RB_BLACK;
				parent->rb_color = RB_BLACK;
				gparent->rb_color = RB_RED;
				node = gparent;
				continue;
			}
			if (node == parent->rb_left) {
				rotate_right(parent, root);
				node = parent;
				parent = node->rb_parent;
			}
			parent->rb_color = RB_BLACK;
			gparent->rb_color = RB_RED;
			rotate_left(gparent, root);
		}
	}
	root->rb_node->rb_color = RB_BLACK;
}

/*
 * A black node was removed from above NODE (NULL allowed), whose parent is
 * PARENT: the paths through NODE miss one black.  Push the deficit up or
 * fix it with rotations around the sibling.
 */
static void erase_fixup(struct rb_node *node, struct rb_node *parent,
			struct rb_root *root)
{
	struct rb_node *sib;

	while (is_black(node) && node != root->rb_node) {
		if (parent->rb_left == node) {
			sib = parent->rb_right;	/* non-NULL: it has a black */
			if (is_red(sib)) {
				sib->rb_color = RB_BLACK;
				parent->rb_color = RB_RED;
				rotate_left(parent, root);
				sib = parent->rb_right;
			}
			if (is_black(sib->rb_left) && is_black(sib->rb_right)) {
				sib->rb_color = RB_RED;
				node = parent;
				parent = node->rb_parent;
				continue;
			}
			if (is_black(sib->rb_right)) {
				sib->rb_left->rb_color = RB_BLACK;
				sib->rb_color = RB_RED;
				rotate_right(sib, root);
				sib = parent->rb_right;
			}
			sib->rb_color = parent->rb_color;
			parent->rb_color = RB_BLACK;
			sib->rb_right->rb_color = RB_BLACK;
			rotate_left(parent, root);
		} else {
			sib = parent->rb_left;
			if (is_red(sib)) {
				sib->rb_color = RB_BLACK;
				parent->rb_color = RB_RED;
				rotate_right(parent, root);
				sib = parent->rb_left;
			}
			if (is_black(sib->rb_left) && is_black(sib->rb_right)) {
				sib->rb_color = RB_RED;
				node = parent;
				parent = node->rb_parent;
				continue;
			}
			if (is_black(sib->rb_left)) {
				sib->rb_right->rb_color = RB_BLACK;
				sib->rb_color = RB_RED;
				rotate_left(sib, root);
				sib = parent->rb_left;
			}
			sib->rb_color = parent->rb_color;
			parent->rb_color = RB_BLACK;
			sib->rb_left->rb_color = RB_BLACK;
			rotate_right(parent, root);
		}
		node = root->rb_node;	/* done */
		break;
	}
	if (node)
		node->rb_color = RB_BLACK;
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *child, *parent;
	int color;

	if (node->rb_left && node->rb_right) {
		/*
		 * Two children: the in-order successor SUCC (leftmost of the
		 * right subtree, so it has no left child) takes NODE's place
		 * and colour; the fix-up concerns SUCC's old position.
		 */
		struct rb_node *succ = node->rb_right;

		while (succ->rb_left)
			succ = succ->rb_left;

		child = succ->rb_right;
		color = succ->rb_color;
		if (succ->rb_parent == node) {
			parent = succ;		/* child stays under succ */
		} else {
			parent = succ->rb_parent;
			if (child)
				child->rb_parent = parent;
			parent->rb_left = child;
			succ->rb_right = node->rb_right;
			node->rb_right->rb_parent = succ;
		}
		replace_child(node->rb_parent, node, succ, root);
		succ->rb_parent = node->rb_parent;
		succ->rb_color = node->rb_color;
		succ->rb_left = node->rb_left;
		node->rb_left->rb_parent = succ;
	} else {
		child = node->rb_left ? node->rb_left : node->rb_right;
		parent = node->rb_parent;
		color = node->rb_color;
		if (child)
			child->rb_parent = parent;
		replace_child(parent, node, child, root);
	}

	if (color == RB_BLACK)
		erase_fixup(child, parent, root);
	RB_CLEAR_NODE(node);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	if (!n)
		return NULL;
	while (n->rb_right)
		n = n->rb_right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_right) {	/* leftmost of the right subtree */
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	/* else the first ancestor we reach from its left side */
	while ((parent = node->rb_parent) && node == parent->rb_right)
		node = parent;
	return parent;
}

__host_test_only struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_left) {
		node = node->rb_left;
		while (node->rb_right)
			node = node->rb_right;
		return (struct rb_node *)node;
	}
	while ((parent = node->rb_parent) && node == parent->rb_left)
		node = parent;
	return parent;
}

/* Black height of the subtree at N (NULL = 0), or -1 if broken; counts nodes. */
static int check_subtree(const struct rb_node *n, const struct rb_node *parent,
			 int *count)
{
	int lh, rh;

	if (!n)
		return 0;
	if (n->rb_parent != parent)
		return -1;
	if (n->rb_color != RB_RED && n->rb_color != RB_BLACK)
		return -1;
	if (is_red(n) && (is_red(n->rb_left) || is_red(n->rb_right)))
		return -1;
	lh = check_subtree(n->rb_left, n, count);
	rh = check_subtree(n->rb_right, n, count);
	if (lh < 0 || rh < 0 || lh != rh)
		return -1;
	(*count)++;
	return lh + (n->rb_color == RB_BLACK);
}

int rb_check(const struct rb_root *root)
{
	int count = 0;

	if (is_red(root->rb_node))
		return -1;
	if (check_subtree(root->rb_node, NULL, &count) < 0)
		return -1;
	return count;
}
