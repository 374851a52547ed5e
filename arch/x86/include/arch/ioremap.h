/*
 * arch/ioremap.h - uncached device mappings in the fixmap (arch/x86/ioremap.c).
 * ioremap() itself is also declared in <arch/timer.h> for the APIC code.
 */
#ifndef ARCH_IOREMAP_H
#define ARCH_IOREMAP_H

#include <kernel/types.h>

/* Map [phys, phys+size) uncached; panics when the 32 MiB fixmap is full. */
void *ioremap(u32 phys, u32 size);
/* The same, but returns NULL instead of panicking. */
void *ioremap_nopanic(u32 phys, u32 size);
/* The largest mapping of more than 64 pages (bytes) ioremap can still make. */
u32 ioremap_room(void);
/* Hook the fixmap's page tables into PGDIR (PDEs 1016..1023). */
void fixmap_install(u32 *pgdir);

#endif
