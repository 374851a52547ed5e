/*
 * kernel/plist.h - priority-sorted lists (Linux 2.6.35's include/linux/
 * plist.h, by name and order): nodes ascend by prio (a lower number is a
 * higher priority), and nodes of equal prio keep their insertion order
 * (FIFO), so plist_first() is the oldest of the best.
 *
 * Deliberate difference: 2.6.35 keeps a second list of one node per prio
 * so that plist_add() is O(distinct prios); this is the one sorted list,
 * O(n) per add.  The rt_mutex wait lists it serves hold a handful of
 * waiters.
 */
#ifndef KERNEL_PLIST_H
#define KERNEL_PLIST_H

#include <kernel/list.h>

struct plist_head {
	struct list_head node_list;
};

struct plist_node {
	int prio;
	struct list_head node_list;	/* self-linked while on no list */
};

static inline void plist_head_init(struct plist_head *head)
{
	INIT_LIST_HEAD(&head->node_list);
}

static inline void plist_node_init(struct plist_node *node, int prio)
{
	node->prio = prio;
	INIT_LIST_HEAD(&node->node_list);
}

static inline int plist_head_empty(const struct plist_head *head)
{
	return list_empty(&head->node_list);
}

static inline int plist_node_empty(const struct plist_node *node)
{
	return list_empty(&node->node_list);
}

/* Add NODE after every node of prio <= NODE's (FIFO among equals). */
static inline void plist_add(struct plist_node *node, struct plist_head *head)
{
	struct list_head *pos;

	list_for_each(pos, &head->node_list)
		if (list_entry(pos, struct plist_node, node_list)->prio > node->prio)
			break;
	list_add_tail(&node->node_list, pos);	/* before POS */
}

static inline void plist_del(struct plist_node *node, struct plist_head *head)
{
	(void)head;
	list_del(&node->node_list);
}

#define plist_first_entry(head, type, member) \
	container_of(list_first_entry(&(head)->node_list, struct plist_node, node_list), \
		     type, member)

#endif
