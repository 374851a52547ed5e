/*
 * tests/host/sched/smp_topo.h - the machines the SMP host tests describe
 * to build_sched_domains() (a package and core id per CPU; CPUs with both
 * equal are SMT threads of one core), and two CPU maps.
 */
#ifndef TESTS_HOST_SCHED_SMP_TOPO_H
#define TESTS_HOST_SCHED_SMP_TOPO_H

#include "smp_fake.h"
#include "../../../kernel/sched/topology.h"

static const struct cpumask all4 = { 0xf }, two = { 0x3 };

/* one core per package: QEMU's -smp N default */
static const struct cpu_topology two_sockets[SMP_NCPUS] = {
	{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } };
/* two packages of two cores */
static const struct cpu_topology two_pkgs_two_cores[SMP_NCPUS] = {
	{ 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } };
/* one package of four cores */
static const struct cpu_topology one_pkg_four_cores[SMP_NCPUS] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } };
/* two packages of one core with two threads */
static const struct cpu_topology smt_pairs[SMP_NCPUS] = {
	{ 0, 0 }, { 0, 0 }, { 1, 0 }, { 1, 0 } };

#endif
