/*
 * kernel/rbtree.h - red-black trees (the Linux <linux/rbtree.h> API).
 *
 * The tree is intrusive: embed a struct rb_node in your object and recover
 * the object with rb_entry().  The library never compares keys; the caller
 * walks down from root->rb_node to find the insertion point, links the new
 * node there with rb_link_node() and then calls rb_insert_color() to
 * rebalance.  Example (keys equal go right, so equal keys stay FIFO):
 *
 *	struct rb_node **link = &root->rb_node, *parent = NULL;
 *	while (*link) {
 *		parent = *link;
 *		if (key < rb_entry(parent, struct thing, node)->key)
 *			link = &parent->rb_left;
 *		else
 *			link = &parent->rb_right;
 *	}
 *	rb_link_node(&new->node, parent, link);
 *	rb_insert_color(&new->node, root);
 *
 * Invariants kept by rb_insert_color()/rb_erase() (checked by rb_check()):
 *   1. every node is red or black; the root is black;
 *   2. a red node has no red child;
 *   3. every path from a node down to a NULL leaf has the same number of
 *      black nodes (so the height is at most 2*log2(n+1)).
 * All operations are O(log n); rb_first/rb_last walk, they do not cache
 * (users that need the minimum often cache it, as CFS's rb_leftmost).
 *
 * Unlike Linux, the parent pointer and the colour are two plain fields
 * instead of one packed word: clearer, and a few bytes are cheap here.
 */
#ifndef KERNEL_RBTREE_H
#define KERNEL_RBTREE_H

#include <kernel/compiler.h>

#define RB_RED		0
#define RB_BLACK	1

struct rb_node {
	struct rb_node *rb_parent;	/* NULL for the root; self if unlinked */
	struct rb_node *rb_left;
	struct rb_node *rb_right;
	int rb_color;			/* RB_RED or RB_BLACK */
};

struct rb_root {
	struct rb_node *rb_node;	/* NULL when the tree is empty */
};

#define RB_ROOT		((struct rb_root) { NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

#define RB_EMPTY_ROOT(root)	((root)->rb_node == NULL)
/* A node that is in no tree (after RB_CLEAR_NODE). */
#define RB_EMPTY_NODE(node)	((node)->rb_parent == (node))
#define RB_CLEAR_NODE(node)	((node)->rb_parent = (node))

/* Put NODE (new, red, no children) at *LINK, the child slot of PARENT. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->rb_parent = parent;
	node->rb_color = RB_RED;
	node->rb_left = node->rb_right = NULL;
	*link = node;
}

/* Rebalance after rb_link_node(). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
/* Unlink NODE from ROOT and rebalance.  NODE is left RB_CLEAR_NODE'd. */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* In-order navigation; NULL at the ends / for an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

/*
 * Debug aid (not in Linux): check invariants 1-3 and the parent links.
 * Returns the number of nodes, or -1 if the tree is broken.
 */
int rb_check(const struct rb_root *root);

#endif
