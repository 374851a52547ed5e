/*
 * kernel/lib/rbtree_augmented.c - augmented red-black trees on top of the
 * plain rebalancing of rbtree.c (see <kernel/rbtree_augmented.h> for why
 * refreshing one path after the rebalance is enough).
 *
 * Used by EEVDF (kernel/sched/eevdf.c): the tree ordered by deadline also
 * answers "is there an eligible entity in this subtree" through the
 * subtree's minimum vruntime.
 */
#include <kernel/rbtree_augmented.h>

/* From START (may be NULL) to the root: children first, then the node. */
static void refresh_path(struct rb_node *start, rb_augment_compute compute)
{
	for (struct rb_node *n = start; n; n = n->rb_parent) {
		if (n->rb_left)
			compute(n->rb_left);
		if (n->rb_right)
			compute(n->rb_right);
		compute(n);
	}
}

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 rb_augment_compute compute)
{
	rb_insert_color(node, root);
	/* the rotations moved nodes under NODE's final ancestors only */
	refresh_path(node, compute);
}

void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			rb_augment_compute compute)
{
	struct rb_node *start;

	/*
	 * The lowest node whose children change: with two children, the
	 * successor's old parent (or the successor itself if it was NODE's
	 * right child, as it keeps its right subtree); else NODE's parent.
	 * The erase fix-up then rotates only around this node's path.
	 */
	if (node->rb_left && node->rb_right) {
		struct rb_node *succ = node->rb_right;

		while (succ->rb_left)
			succ = succ->rb_left;
		start = succ->rb_parent == node ? succ : succ->rb_parent;
	} else {
		start = node->rb_parent;
	}
	rb_erase(node, root);
	refresh_path(start, compute);
}

void rb_augment_propagate(struct rb_node *node, rb_augment_compute compute)
{
	while (node && !compute(node))
		node = node->rb_parent;
}
