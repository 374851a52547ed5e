"""tools/granule/bench/variants.py - the bench's variant rows: a preset plus boot words.

A variant is a configuration that no line of tools/presets names: a base
preset with a few more words on Granule's boot line, e.g. linux-6.12 with
sched_base_slice_ns=3000000.  Its label is the base and the words as they
go on the boot line ("linux-6.12 slice_us=100"), so every row of the report
says how to boot it by hand:

  tools/run-qemu -- 'sched_preset=linux-6.12 slice_us=100 run=experiment mode=thread load=kbuild:10'

A label stands wherever a preset name stands in tools/bench: it is the
configuration's "preset" in the jobs, runs.json and the report's tables,
--variants selects labels for the matrix, and the sweep's --preset takes one.
Words are applied after the preset, left to right (the kernel's rule), so a
knob swept on top of a variant overrides the variant's own.

  VARIANTS          [Variant(base, words, what)] in report order
  label(v)          "BASE WORDS"
  resolve(name)     (preset, words) for a preset name or a variant label
  select(spec, presets)   the variants a matrix runs: "all", "none", a comma
                    list of labels, or None (those whose base is in PRESETS)

Each variant's Linux twin (the same setting on Debian's Linux 6.12) is in
tools/granule/peer/linux.py's GRANULE_TWIN, keyed by the Linux preset.
"""
from collections import namedtuple

Variant = namedtuple("Variant", "base words what")

# Linux 6.12's knobs and its per-task request (docs/VARIANTS.md, "linux-6.12 and its
# variants"; docs/SCHEDULER.md, EEVDF chapter).  No commas in the words: a --variants
# list is split at commas.
VARIANTS = [
    Variant("linux-6.12", "sched_base_slice_ns=3000000",
            "base slice 3 ms instead of 0.70 ms: later deadlines for everyone, longer turns"),
    Variant("linux-6.12", "slice_us=100",
            "the notifying threads ask for a 0.1 ms slice (sched_setattr's sched_runtime)"),
    Variant("linux-6.12", "sched_features=NO_PLACE_LAG",
            "wakeups placed at V, their lag forgotten"),
    Variant("linux-6.12", "sched_features=NO_RUN_TO_PARITY",
            "the running task is not protected up to its deadline"),
]


def label(variant):
    return f"{variant.base} {variant.words}"


LABELS = {label(v): v for v in VARIANTS}


def resolve(name):
    """(sched_preset, extra boot words) of a preset name or a variant label."""
    v = LABELS.get(name)
    return (v.base, v.words) if v else (name, "")


def select(spec, presets):
    """The variants (in VARIANTS order) that a matrix over PRESETS runs.

    None: every variant whose base preset is in PRESETS; "all"; "none"; or a
    comma list of labels (SystemExit naming the known ones for a wrong one)."""
    if spec is None:
        return [v for v in VARIANTS if v.base in presets]
    if spec == "all":
        return list(VARIANTS)
    if spec == "none":
        return []
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    unknown = [w for w in wanted if w not in LABELS]
    if unknown:
        raise SystemExit(f"bench: unknown variant {unknown[0]!r} (known: "
                         + "; ".join(LABELS) + ")")
    return [v for v in VARIANTS if label(v) in wanted]
