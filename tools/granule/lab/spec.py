"""tools/granule/lab/spec.py - the labs: what each one cuts, teaches and grades (docs/LABS.md).

LABS maps a lab's name to:
  difficulty, title       what `make lab` lists
  linux, docs, source     what the stub's comment points to
  stub                    the stub's lines (or one list per region, in file order)
  checks                  (check, points): the lab's cmocka checks in
                          tests/labs/ (build/host/labs NAME CHECK), its
                          property test test_property_NAME among them
  suites                  (suite, points): host suites that exercise the
                          function, run whole (build/host/labs.suite/SUITE)
  experiment              (optional) one QEMU figure against the reference's
The points of a lab add up to 100.
"""
DOC = "docs/SCHEDULER.md"

# The host suites a grade may run, and the test file each one is built from
# (tests/labs/rules.mk links them from the labs' objects).
SUITE_FILES = {
    "sched_fair": "tests/host/sched/test_fair.c",
    "sched_preempt": "tests/host/sched/test_preempt.c",
    "sched_variants": "tests/host/sched/test_variants.c",
    "sched_worked": "tests/host/sched/test_worked.c",
    "sched_eevdf": "tests/host/sched/test_eevdf.c",
    "sched_eevdf_class": "tests/host/sched/test_eevdf_class.c",
    "sched_balance": "tests/host/sched/test_balance.c",
    "sched_rebalance": "tests/host/sched/test_rebalance.c",
    "sched_eevdf_smp": "tests/host/sched/test_eevdf_smp.c",
    "sched_balance_worked": "tests/host/sched/test_balance_worked.c",
}

LABS = {
    "update_curr": dict(
        difficulty="easy",
        title="update_curr and vruntime: charge the running task",
        linux="__update_curr() in Linux 2.6.35 kernel/sched_fair.c "
              "(update_curr() in 6.12 kernel/sched/fair.c)",
        docs=DOC + ' "Step 2: the ticks" and "Function by function"',
        stub=["\t(void)cfs_rq;", "\t(void)curr;", "\t(void)delta_exec;"],
        checks=[("test_nice0_charge", 6), ("test_weighted_charge", 8),
                ("test_every_nice_level", 8), ("test_long_delta", 8),
                ("test_exec_clock_and_max", 6), ("test_min_vruntime_follows", 6),
                ("test_min_vruntime_never_backwards", 8), ("test_property_update_curr", 25)],
        suites=[("sched_fair", 10), ("sched_worked", 8), ("sched_variants", 7)],
    ),
    "place_entity": dict(
        difficulty="medium",
        title="place_entity: START_DEBIT and the sleeper credit",
        linux="place_entity() in Linux 2.6.35 kernel/sched_fair.c "
              "(6.12 kernel/sched/fair.c places by lag instead)",
        docs=DOC + ' "Step 3: a fork, with and without START_DEBIT" and "Step 4: a sleeper '
                   'wakes"; the [M2/2] line: docs/VARIANTS.md',
        stub=["\t(void)cfs_rq;", "\t(void)se;", "\t(void)initial;"],
        checks=[("test_start_debit", 7), ("test_debit_is_virtual", 7),
                ("test_no_start_debit", 5), ("test_sleeper_credit_gentle", 7),
                ("test_sleeper_credit_full", 5), ("test_credit_is_raw", 6),
                ("test_never_backwards", 7), ("test_sleeper_shield_armed", 6),
                ("test_property_place_entity", 25)],
        suites=[("sched_fair", 10), ("sched_worked", 8), ("sched_variants", 7)],
    ),
    "check_preempt_tick": dict(
        difficulty="medium",
        title="check_preempt_tick: when the tick takes the CPU away",
        linux="check_preempt_tick() in Linux 2.6.35 kernel/sched_fair.c "
              "(6.12 kernel/sched/fair.c replaced it by update_deadline())",
        docs=DOC + ' "The preemption model" and "The tick"; DEADLINE, [M2/2], DYN_GRAN '
                   'and CPT_FIX: docs/VARIANTS.md',
        stub=["\t(void)cfs_rq;", "\t(void)curr;"],
        checks=[("test_slice_used_up", 6), ("test_slice_edge", 5),
                ("test_lead_over_slice", 6), ("test_lead_edge", 5),
                ("test_min_granularity", 5), ("test_no_wakeup_preempt", 5),
                ("test_lead_against_wall_slice", 5), ("test_deadline_expired", 4),
                ("test_sleeper_shield", 5), ("test_dyn_gran", 4),
                ("test_property_check_preempt_tick", 25)],
        suites=[("sched_preempt", 10), ("sched_variants", 8), ("sched_worked", 7)],
    ),
    "pick_next_entity": dict(
        difficulty="medium",
        title="pick_next_entity: the rbtree's leftmost and the buddies",
        linux="pick_next_entity() in Linux 2.6.35 kernel/sched_fair.c "
              "(6.12 kernel/sched/fair.c picks by EEVDF instead: lab eevdf_pick)",
        docs=DOC + ' "The preemption model" (the buddies) and "Function by function"; '
                   'Granule\'s DEADLINE: kernel/sched/deadline.c',
        stub=["\treturn __pick_last_entity(cfs_rq);\t/* the rightmost: runs, unfairly */"],
        checks=[("test_leftmost_picked", 6), ("test_next_buddy_within_gran", 7),
                ("test_next_buddy_too_far", 6), ("test_buddy_at_leftmost", 6),
                ("test_last_buddy_wins", 7), ("test_gran_edge_and_weight", 8),
                ("test_expired_deadline_first", 10), ("test_property_pick_next_entity", 25)],
        suites=[("sched_preempt", 10), ("sched_fair", 8), ("sched_worked", 7)],
    ),
    "eevdf_pick": dict(
        difficulty="hard",
        title="EEVDF: avg_vruntime, eligibility and pick_eevdf",
        linux="avg_vruntime(), vruntime_eligible() and pick_eevdf() in Linux 6.12 "
              "kernel/sched/fair.c",
        docs=DOC + ' "V, lag and eligibility" and "Deadlines and the pick"',
        stub=[["\treturn eevdf_rq(cfs_rq)->zero_vruntime;\t/* v0, not V */"],
              ["\t(void)cfs_rq;", "\t(void)vruntime;", "\treturn 0;\t/* nothing is eligible */"],
              ["\treturn __pick_first_entity(cfs_rq);\t/* EDF, blind to eligibility */"]],
        checks=[("test_avg_vruntime_weighted_mean", 6), ("test_avg_vruntime_floor_and_curr", 6),
                ("test_eligible_lag_nonneg", 6), ("test_eligible_counts_curr", 4),
                ("test_pick_earliest_eligible_deadline", 6),
                ("test_pick_walks_subtree_minima", 6), ("test_pick_curr_and_run_to_parity", 6),
                ("test_pick_curr_ineligible_or_tied", 5), ("test_pick_touches_log_n", 10),
                ("test_property_eevdf_pick", 25)],
        suites=[("sched_eevdf", 12), ("sched_eevdf_class", 8)],
    ),
    "start_nice": dict(
        difficulty="medium",
        title="START_NICE (2010): temporarily niced forks, from the patch text",
        source="Patch",
        linux="START_NICE v2, Mathieu Desnoyers, \"[RFC PATCH] sched: START_NICE "
              "feature (temporarily niced forks) (v2)\", LKML, 2010-09-14 (never merged)",
        docs='docs/VARIANTS.md "start-nice and start-nice-debit: START_NICE v2" and '
             'fair.c\'s calc_delta_fair',
        stub=[],
        checks=[("test_first_fork_penalty", 5), ("test_second_fork_escalates", 5),
                ("test_cap_at_8", 4), ("test_expired_penalty_dropped", 4),
                ("test_expiry_edge", 4), ("test_long_running_parent", 4),
                ("test_nice_parent", 4), ("test_only_with_start_nice", 3),
                ("test_child_runs_faster", 3), ("test_property_start_nice", 20)],
        suites=[("sched_variants", 14), ("sched_worked", 10)],
        # START_DEBIT kept, so the penalty is what moves the figure: a tree
        # without it (the stub) averages about a quarter more (docs/LABS.md)
        experiment=dict(check="experiment_avg_latency", points=20, bench="wakeup-latency",
                        key="avg_us", tolerance=0.10,
                        cmdline="sched_preset=start-nice-debit run=experiment mode=thread "
                                "load=kbuild:10 duration=2"),
    ),
    "find_busiest_group": dict(
        difficulty="medium",
        title="find_busiest_group: group loads per power and the imbalance (SMP)",
        linux="update_sg_lb_stats() (its arithmetic after the loop), fix_small_imbalance() "
              "and calculate_imbalance() in Linux 2.6.35 kernel/sched_fair.c",
        docs=DOC + ' "Several CPUs: the SMP half of the fair class" (the balancer\'s '
                   'arithmetic and its worked example) and balance.c\'s header (the units)',
        stub=[["\t(void)avg_load_per_task;", "\t(void)max_cpu_load;", "\t(void)min_cpu_load;",
               "\t(void)sgs;\t/* avg_load, group_imb, group_capacity stay 0: never busiest */"],
              ["\t(void)sds;", "\t(void)this_cpu;", "\t(void)imbalance;"],
              ["\t(void)sds;", "\t(void)this_cpu;", "\t*imbalance = 0;\t/* moves nothing */"]],
        checks=[("test_avg_load_per_power", 6), ("test_group_capacity_rounds", 5),
                ("test_group_imb_edge", 5), ("test_idle_cpu_pulls", 5),
                ("test_capacity_caps_the_pull", 5), ("test_max_pull_caps", 6),
                ("test_below_average_busiest", 5), ("test_fix_small_imbalance", 6),
                ("test_fix_small_power_scale", 5), ("test_property_find_busiest_group", 27)],
        suites=[("sched_balance", 12), ("sched_rebalance", 8), ("sched_balance_worked", 5)],
    ),
    "wake_affine": dict(
        difficulty="hard",
        title="wake_affine and select_idle_sibling: where a wakee runs (SMP, EEVDF)",
        linux="wake_affine_idle(), wake_affine_weight(), wake_affine(), "
              "update_idle_cpu_scan(), select_idle_cpu() and select_idle_sibling() in "
              "Linux 6.12 kernel/sched/fair.c",
        docs=DOC + ' "Several CPUs under EEVDF: PELT and 6.12\'s wakeup placement" and '
                   'eevdf_smp.c\'s comments (the topology)',
        stub=[["\t(void)this_cpu;", "\t(void)prev_cpu;", "\t(void)sync;",
               "\treturn NR_CPUS;\t/* no opinion */"],
              ["\t(void)sd;", "\t(void)p;", "\treturn NR_CPUS;\t/* no opinion */"],
              ["\t(void)sd;", "\t(void)p;", "\t(void)this_cpu;", "\t(void)sync;",
               "\treturn prev_cpu;\t/* never affine */"],
              ["\t(void)cpu;"],
              ["\t(void)p;", "\t(void)sd;", "\t(void)target;", "\t(void)nr_idle_scan;",
               "\treturn -1;\t/* no idle CPU found */"],
              ["\t(void)p;", "\t(void)prev;", "\treturn target;\t/* wake_affine's choice, "
               "idle or not */"]],
        checks=[("test_wa_idle", 6), ("test_wa_idle_sync", 5), ("test_wa_weight_bias", 6),
                ("test_wa_weight_sync", 5), ("test_wake_affine_counts", 4),
                ("test_sis_util_depth", 6), ("test_sis_order", 6),
                ("test_sis_available_idle", 5), ("test_scan_mask_and_depth", 6),
                ("test_property_wake_affine", 26)],
        suites=[("sched_eevdf_smp", 25)],
    ),
}


def points(lab):
    """The lab's rows as (kind, name, points): checks, suites, the experiment."""
    rows = [("check", c, p) for c, p in lab["checks"]]
    rows += [("suite", s, p) for s, p in lab["suites"]]
    exp = lab.get("experiment")
    if exp:
        rows.append(("experiment", exp["check"], exp["points"]))
    return rows


for _name, _lab in LABS.items():
    assert sum(p for _, _, p in points(_lab)) == 100, _name
    assert all(s in SUITE_FILES for s, _ in _lab["suites"]), _name
