/*
 * tests/host/sched/docblock.h - the tables a host test keeps true in a
 * document: each sits between <!-- worked:NAME --> and <!-- /worked:NAME -->
 * (test_worked.c's tables of docs/SCHEDULER.md, test_pelt.c's PELT example).
 */
#ifndef TESTS_HOST_SCHED_DOCBLOCK_H
#define TESTS_HOST_SCHED_DOCBLOCK_H

/* The whole file at PATH, malloc'd and NUL-terminated; NULL if unreadable. */
char *read_doc(const char *path);

/* The text between <!-- worked:NAME --> and <!-- /worked:NAME --> (newline
 * after the first marker excluded), NULL if either marker is missing;
 * *END gets where the end marker starts. */
char *block(char *doc, const char *nm, char **end);

#endif
