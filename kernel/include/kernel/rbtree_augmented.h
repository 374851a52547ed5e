/*
 * kernel/rbtree_augmented.h - red-black trees whose nodes carry a value
 * computed from their subtree (Linux's <linux/rbtree_augmented.h> idea),
 * e.g. EEVDF's se->min_vruntime = min(se->vruntime, children's min).
 *
 * The caller supplies one function, COMPUTE(node): recompute node's
 * augmented value from node itself and its children's values, and return
 * true if it did not change (Linux's RBCOMPUTE with exit = true).
 *
 * Insert: link the node as for a plain tree (rb_link_node), with its
 * augmented value set to its own value, then call rb_insert_augmented().
 * Erase: rb_erase_augmented().  Both keep every node's value exact.
 *
 * How (a deliberate difference from Linux, which calls back from inside
 * every rotation): the plain rb_insert_color()/rb_erase() run unchanged,
 * then the values are refreshed along one path.  Every node whose subtree
 * changed is on the path from the lowest changed position to the root, or
 * is a child of a node on it (a rotation moves one node down, under a node
 * of the path), so for each path node bottom-up we recompute its children,
 * then itself: O(log n), as Linux's callbacks.
 */
#ifndef KERNEL_RBTREE_AUGMENTED_H
#define KERNEL_RBTREE_AUGMENTED_H

#include <kernel/rbtree.h>

typedef bool (*rb_augment_compute)(struct rb_node *node);

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 rb_augment_compute compute);
void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			rb_augment_compute compute);
/* NODE's own value changed in place: refresh it and its ancestors. */
void rb_augment_propagate(struct rb_node *node, rb_augment_compute compute);

#endif
