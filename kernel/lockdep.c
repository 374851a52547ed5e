/*
 * kernel/lockdep.c - the lock validator's graph (Linux 2.6.35's
 * kernel/lockdep.c in miniature; the checks and their report texts are
 * listed in <kernel/lockdep.h>).
 *
 * Classes live in one table, found by key with a linear search (there are
 * tens of them; 2.6.35 hashes its 8191).  A dependency A -> B is a struct
 * lock_list in A's forward list, with where A and B were taken when it was
 * first seen, as 2.6.35 keeps a stack trace per dependency.  The graph only
 * grows: a new edge is searched for a cycle (breadth first from B towards
 * A, check_noncircular) and for an irq-safe lock behind A meeting an
 * irq-unsafe one after B (check_irq_usage); an edge seen before costs a
 * walk of A's list.  Where 2.6.35 caches each chain of held classes by a
 * hash so a known chain costs nothing, this walks the list every time:
 * fine behind lockdep=1.
 *
 * Pure: no per-CPU data and no arch calls, so the host test links it as is.
 */
#include <kernel/lockdep.h>
#include <kernel/printk.h>

enum { USED_IN_HARDIRQ, ENABLED_HARDIRQ, NR_USAGE };	/* usage bits */
static const char *const usage_str[NR_USAGE] = { "IN-HARDIRQ-W", "HARDIRQ-ON-W" };

struct lock_class {
	const void *key;
	unsigned int subclass;			/* spin_lock_nested()'s, 0 mostly */
	const char *name;
	unsigned int usage;			/* 1 << USED_IN_HARDIRQ | ... */
	unsigned long usage_ip[NR_USAGE];	/* where each bit was first set */
	int first;				/* first forward edge, or -1 */
};

struct lock_list {			/* the dependency from -> to */
	struct lock_class *from, *to;
	unsigned long from_ip, to_ip;	/* where each was taken */
	int next;			/* from's next edge, or -1 */
};

int debug_locks = 1;
struct lockdep_stats lockdep_stats;
static struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
static struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_lock_classes, nr_list_entries;

static int class_idx(const struct lock_class *class)
{
	return (int)(class - lock_classes);
}

int debug_locks_off(void)
{
	if (!debug_locks)
		return 0;
	debug_locks = 0;
	lockdep_stats.nr_reports++;
	return 1;
}

void lockdep_reset(void)
{
	nr_lock_classes = nr_list_entries = 0;
	lockdep_stats = (struct lockdep_stats){ 0 };
	debug_locks = 1;
}

static struct lock_class *look_up_lock_class(const void *key, unsigned int subclass)
{
	for (unsigned int i = 0; i < nr_lock_classes; i++)
		if (lock_classes[i].key == key && lock_classes[i].subclass == subclass)
			return &lock_classes[i];
	return NULL;
}

const char *lockdep_class_name(const void *key)
{
	struct lock_class *class = look_up_lock_class(key, 0);

	return class ? class->name : NULL;
}

/*
 * MAP's class, made at first use.  A lock of one class taken inside
 * another of it (two runqueues) names a SUBCLASS, a class of its own, as
 * 2.6.35's spin_lock_nested(); only subclass 0's is cached in MAP.
 */
static struct lock_class *register_lock_class(struct lockdep_map *map, unsigned int subclass)
{
	struct lock_class *class = map->class_cache;

	/* the cache holds unless lockdep_reset() emptied or reused the slot */
	if (!subclass && class && class_idx(class) < (int)nr_lock_classes && class->key == map->key &&
	    !class->subclass)
		return class;
	if (!map->key) {		/* never initialised: a class of its own */
		map->key = map;
		map->name = "(uninitialised lock)";
	}
	class = look_up_lock_class(map->key, subclass);
	if (!class) {
		if (nr_lock_classes == MAX_LOCKDEP_KEYS) {
			if (debug_locks_off())
				printk("BUG: MAX_LOCKDEP_KEYS too low!\nturning off the locking correctness validator.\n");
			return NULL;
		}
		class = &lock_classes[nr_lock_classes++];
		*class = (struct lock_class){ .key = map->key, .subclass = subclass,
					      .name = map->name, .first = -1 };
		lockdep_stats.nr_classes = nr_lock_classes;
	}
	if (!subclass)
		map->class_cache = class;
	return class;
}

/* ---- printing ---- */

/* One character per state as 2.6.35's get_usage_chars (hard irqs, write
 * only): '.' neither, '+' irq-safe, '-' irq-unsafe, '?' both. */
static char usage_char(const struct lock_class *class)
{
	static const char c[4] = { '.', '+', '-', '?' };

	return c[class->usage & 3];
}

static void print_class(const struct lock_class *class)
{
	if (class->subclass)	/* 2.6.35: "(&rq->lock/1)" */
		printk(" (%s/%u){%c}", class->name, class->subclass, usage_char(class));
	else
		printk(" (%s){%c}", class->name, usage_char(class));
}

static void print_held(const struct held_lock *hl)
{
	print_class(hl->class);
	printk(", at: ");
	lockdep_print_ip(hl->acquire_ip);
}

static void print_held_locks(const struct lockdep_cpu *c)
{
	printk("\n%u lock%s held by ", c->depth, c->depth == 1 ? "" : "s");
	lockdep_print_who();
	printk(":\n");
	for (unsigned int i = 0; i < c->depth; i++) {
		printk(" #%u: ", i);
		print_held(&c->held[i]);
	}
}

static void print_banner(const char *what)
{
	size_t n = 4;

	for (const char *s = what; *s; s++)
		n++;
	for (size_t i = 0; i < n; i++)
		printk("=");
	printk("\n[ %s ]\n", what);
	for (size_t i = 0; i < n; i++)
		printk("-");
	printk("\n");
}

static void print_who_does(const char *what)
{
	lockdep_print_who();
	printk(" %s\n", what);
}

/* The head of the two reports about taking NEXT while PREV is held. */
static void print_trying(const struct held_lock *prev, const struct held_lock *next, const char *what)
{
	printk("\n");
	print_banner(what);
	print_who_does("is trying to acquire lock:");
	print_held(next);
	printk("\nbut task is already holding lock:\n");
	print_held(prev);
}

/* ---- breadth-first search of the graph ---- */

typedef int (*bfs_match_fn)(const struct lock_class *class, const void *data);

static int bfs_parent[MAX_LOCKDEP_KEYS];	/* edge that reached each class */
static unsigned char bfs_seen[MAX_LOCKDEP_KEYS];
static int bfs_queue[MAX_LOCKDEP_KEYS];

/* Visit the classes START reaches (forwards) or that reach it (backwards),
 * START included; return the first MATCH, its path in bfs_parent[]. */
static struct lock_class *bfs(struct lock_class *start, int forwards, bfs_match_fn match,
			      const void *data)
{
	unsigned int head = 0, tail = 0;

	for (unsigned int i = 0; i < nr_lock_classes; i++)
		bfs_seen[i] = 0;
	bfs_queue[tail++] = class_idx(start);
	bfs_seen[class_idx(start)] = 1;
	bfs_parent[class_idx(start)] = -1;
	while (head < tail) {
		struct lock_class *cur = &lock_classes[bfs_queue[head++]];

		if (match(cur, data))
			return cur;
		for (unsigned int e = 0; e < nr_list_entries; e++) {
			const struct lock_list *l = &list_entries[e];
			struct lock_class *near = forwards ? l->from : l->to;
			struct lock_class *far = forwards ? l->to : l->from;

			if (near != cur || bfs_seen[class_idx(far)])
				continue;
			bfs_seen[class_idx(far)] = 1;
			bfs_parent[class_idx(far)] = (int)e;
			bfs_queue[tail++] = class_idx(far);
		}
	}
	return NULL;
}

static int match_class(const struct lock_class *class, const void *data)
{
	return class == data;
}

static int match_usage(const struct lock_class *class, const void *data)
{
	return class->usage & *(const unsigned int *)data;
}

/* ---- the reports ---- */

static void print_dependency(int nr, const struct lock_class *to, unsigned long to_ip,
			     const struct lock_class *from, unsigned long from_ip)
{
	printk("\n-> #%d", nr);
	print_class(to);
	printk(":\n       ");
	lockdep_print_ip(to_ip);
	printk("       while holding");
	print_class(from);
	printk(" taken at ");
	lockdep_print_ip(from_ip);
}

/* NEXT reaches PREV already (bfs_parent[] holds the path from NEXT); taking
 * NEXT under PREV closes the cycle. */
static void print_circular_bug(const struct lockdep_cpu *c, const struct held_lock *prev,
			       const struct held_lock *next)
{
	int path[MAX_LOCKDEP_KEYS], n = 0;

	if (!debug_locks_off())
		return;
	for (int e = bfs_parent[class_idx(prev->class)]; e >= 0;
	     e = bfs_parent[class_idx(list_entries[e].from)])
		path[n++] = e;
	print_trying(prev, next, "INFO: possible circular locking dependency detected");
	printk("\nwhich lock already depends on the new lock.\n\n");
	printk("\nthe existing dependency chain (in reverse order) is:\n");
	for (int i = 0; i < n; i++) {		/* PREV first, back to NEXT */
		const struct lock_list *l = &list_entries[path[i]];

		print_dependency(n - i, l->to, l->to_ip, l->from, l->from_ip);
	}
	print_dependency(0, next->class, next->acquire_ip, prev->class, prev->acquire_ip);
	printk("\nother info that might help us debug this:\n");
	print_held_locks(c);
}

static void print_bad_irq_dependency(const struct lockdep_cpu *c, const struct held_lock *prev,
				     const struct held_lock *next, const struct lock_class *safe,
				     const struct lock_class *unsafe)
{
	if (!debug_locks_off())
		return;
	printk("\n");
	print_banner("INFO: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	print_who_does("is trying to acquire:");
	print_held(next);
	printk("\nand this task is already holding:\n");
	print_held(prev);
	printk("which would create a new lock dependency:\n");
	print_class(prev->class);
	printk(" ->");
	print_class(next->class);
	printk("\n\nbut this new dependency connects a HARDIRQ-irq-safe lock:\n");
	print_class(safe);
	printk("\n... which became HARDIRQ-irq-safe at:\n  ");
	lockdep_print_ip(safe->usage_ip[USED_IN_HARDIRQ]);
	printk("\nto a HARDIRQ-irq-unsafe lock:\n");
	print_class(unsafe);
	printk("\n... which became HARDIRQ-irq-unsafe at:\n  ");
	lockdep_print_ip(unsafe->usage_ip[ENABLED_HARDIRQ]);
	printk("\nother info that might help us debug this:\n");
	print_held_locks(c);
}

/* ---- adding a dependency ---- */

static int has_dependency(const struct lock_class *from, const struct lock_class *to)
{
	for (int e = from->first; e >= 0; e = list_entries[e].next)
		if (list_entries[e].to == to)
			return 1;
	return 0;
}

/* PREV is held and NEXT is taken: check, then record PREV -> NEXT.
 * 0 after a report (the validator is off). */
static int check_prev_add(const struct lockdep_cpu *c, const struct held_lock *prev,
			  const struct held_lock *next)
{
	static const unsigned int in_irq = 1 << USED_IN_HARDIRQ, irq_on = 1 << ENABLED_HARDIRQ;
	struct lock_class *safe, *unsafe;
	struct lock_list *l;

	if (has_dependency(prev->class, next->class))
		return 1;
	if (bfs(next->class, 1, match_class, prev->class)) {	/* check_noncircular */
		print_circular_bug(c, prev, next);
		return 0;
	}
	safe = bfs(prev->class, 0, match_usage, &in_irq);	/* check_irq_usage */
	unsafe = safe ? bfs(next->class, 1, match_usage, &irq_on) : NULL;
	if (unsafe) {
		print_bad_irq_dependency(c, prev, next, safe, unsafe);
		return 0;
	}
	if (nr_list_entries == MAX_LOCKDEP_ENTRIES) {
		if (debug_locks_off())
			printk("BUG: MAX_LOCKDEP_ENTRIES too low!\nturning off the locking correctness validator.\n");
		return 0;
	}
	l = &list_entries[nr_list_entries++];
	*l = (struct lock_list){ .from = prev->class, .to = next->class, .from_ip = prev->acquire_ip,
				 .to_ip = next->acquire_ip, .next = prev->class->first };
	prev->class->first = (int)(l - list_entries);
	lockdep_stats.nr_dependencies = nr_list_entries;
	return 1;
}

/* The held locks of NEXT's irq context, from the innermost: an edge from
 * the innermost lock that is not a trylock and from every trylock above it
 * (the locks below have their own edge to it, so NEXT is behind them too;
 * 2.6.35's check_prevs_add). */
static int check_prevs_add(const struct lockdep_cpu *c, const struct held_lock *next)
{
	for (int i = (int)c->depth - 1; i >= 0; i--) {
		const struct held_lock *hl = &c->held[i];

		if (hl->irq_context != next->irq_context)
			break;
		if (!check_prev_add(c, hl, next))
			return 0;
		if (!hl->trylock)
			break;
	}
	return 1;
}

/* ---- irq usage ---- */

static void print_usage_bug(const struct lockdep_cpu *c, const struct held_lock *this,
			    int prev_bit, int new_bit)
{
	if (!debug_locks_off())
		return;
	printk("\n");
	print_banner("INFO: inconsistent lock state");
	printk("inconsistent {%s} -> {%s} usage.\n", usage_str[prev_bit], usage_str[new_bit]);
	lockdep_print_who();
	printk(" %s takes:\n", new_bit == USED_IN_HARDIRQ ? "[HC1[1]]" : "[HC0[0]]");
	print_held(this);
	printk("{%s} state was registered at:\n  ", usage_str[prev_bit]);
	lockdep_print_ip(this->class->usage_ip[prev_bit]);
	print_held_locks(c);
}

/* THIS's class just got NEW_BIT: a class behind it (irq-safe) or after it
 * (irq-unsafe) with the other bit is an inversion found late (2.6.35's
 * check_usage_forwards / check_usage_backwards). */
static void check_usage_graph(const struct lockdep_cpu *c, const struct held_lock *this, int new_bit)
{
	unsigned int other = 1 << (new_bit == USED_IN_HARDIRQ ? ENABLED_HARDIRQ : USED_IN_HARDIRQ);
	struct lock_class *found = bfs(this->class, new_bit == USED_IN_HARDIRQ, match_usage, &other);

	if (!found || !debug_locks_off())
		return;
	printk("\n");
	print_banner("INFO: possible irq lock inversion dependency detected");
	lockdep_print_who();
	printk(" just changed the state of lock:\n");
	print_held(this);
	printk("but this lock %s:\n", new_bit == USED_IN_HARDIRQ ? "took another, HARDIRQ-unsafe lock in the past"
				       : "was taken while this HARDIRQ-safe lock was held in the past");
	print_class(found);
	printk("\n\nand interrupts could create inverse lock ordering between them.\n");
	print_held_locks(c);
}

/* Record how THIS is taken now; 0 after a report. */
static int mark_irq_usage(const struct lockdep_cpu *c, const struct held_lock *this, int irqs_on)
{
	struct lock_class *class = this->class;
	int new_bit;

	if (c->hardirq_context)
		new_bit = USED_IN_HARDIRQ;
	else if (irqs_on)
		new_bit = ENABLED_HARDIRQ;
	else
		return 1;
	if (class->usage & (1u << new_bit))
		return 1;
	class->usage |= 1u << new_bit;
	class->usage_ip[new_bit] = this->acquire_ip;
	if (class->usage & (1u << (new_bit ^ 1))) {
		print_usage_bug(c, this, new_bit ^ 1, new_bit);
		return 0;
	}
	check_usage_graph(c, this, new_bit);
	return debug_locks;
}

/* ---- acquire and release ---- */

static void print_deadlock_bug(const struct lockdep_cpu *c, const struct held_lock *prev,
			       const struct held_lock *next)
{
	if (!debug_locks_off())
		return;
	print_trying(prev, next, "INFO: possible recursive locking detected");
	printk("\nother info that might help us debug this:\n");
	print_held_locks(c);
}

void __lock_acquire(struct lockdep_cpu *c, struct lockdep_map *map, int trylock,
		    int irqs_on, unsigned long ip)
{
	__lock_acquire_nested(c, map, 0, trylock, irqs_on, ip);
}

void __lock_acquire_nested(struct lockdep_cpu *c, struct lockdep_map *map, unsigned int subclass,
			   int trylock, int irqs_on, unsigned long ip)
{
	struct held_lock next;

	if (!debug_locks)
		return;
	next = (struct held_lock){ .class = register_lock_class(map, subclass), .instance = map,
				   .acquire_ip = ip, .irq_context = c->hardirq_context,
				   .trylock = !!trylock };
	if (!next.class || !mark_irq_usage(c, &next, irqs_on))
		return;
	if (c->depth == MAX_LOCK_DEPTH) {
		if (debug_locks_off())
			printk("BUG: MAX_LOCK_DEPTH too low!\nturning off the locking correctness validator.\n");
		return;
	}
	if (!trylock) {
		for (unsigned int i = 0; i < c->depth; i++)	/* check_deadlock */
			if (c->held[i].class == next.class) {
				print_deadlock_bug(c, &c->held[i], &next);
				return;
			}
		if (!check_prevs_add(c, &next))
			return;
	}
	c->held[c->depth++] = next;
	lockdep_stats.nr_acquires++;
	if (c->depth > lockdep_stats.max_depth)
		lockdep_stats.max_depth = c->depth;
}

static void print_unlock_imbalance_bug(struct lockdep_map *map, unsigned long ip)
{
	if (!debug_locks_off())
		return;
	printk("\n");
	print_banner("BUG: bad unlock balance detected!");
	print_who_does("is trying to release lock");
	printk(" (%s) at:\n", map->name);
	lockdep_print_ip(ip);
	printk("but there are no more locks to release!\n");
}

/* Locks may be released in any order: the entry leaves from where it is. */
void __lock_release(struct lockdep_cpu *c, struct lockdep_map *map, unsigned long ip)
{
	if (!debug_locks)
		return;
	for (int i = (int)c->depth - 1; i >= 0; i--) {
		if (c->held[i].instance != map)
			continue;
		for (unsigned int j = (unsigned int)i + 1; j < c->depth; j++)
			c->held[j - 1] = c->held[j];
		c->depth--;
		return;
	}
	print_unlock_imbalance_bug(map, ip);
}

void __lockdep_sys_exit(struct lockdep_cpu *c)
{
	if (!c->depth || !debug_locks || !debug_locks_off())
		return;
	printk("\n");
	print_banner("BUG: lock held when returning to user space!");
	print_who_does("is leaving the kernel with locks still held!");
	print_held_locks(c);
}
