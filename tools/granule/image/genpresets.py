"""tools/genpresets - tools/presets -> the initializers of the preset tables.

  tools/genpresets tools/presets > build/gen/sched_presets.h
  tools/genpresets --user tools/presets > build/gen/user_presets.h

tools/presets is the one list of scheduler presets (its header comment says
the format); kernel/sched/tunables.c includes the first output inside its
`static const struct sched_preset sched_presets[]`, one initializer per
line, fields in struct order (the CFS presets only).  With --user the
output is user/preset.c's `struct preset presets[]`: every preset, EEVDF's
too, with its description and the writes that switch to it at run time, in
the order sched_preset_apply() sets the values (the times, nr_latency as
compiled, the whole feature line - the defaults of kernel/sched/features.h
with the preset's +/- applied -, the variant knobs), each a file under
/proc/sys/kernel or "sched_features" (/sys/kernel/debug/sched_features)
and its value.  On one CPU the CPU-count factor is 1, so the sysctl value
is the preset's normalized one.  An EEVDF preset has no writes (its
settings are kernel/sched/eevdf_tunables.c's): only the files the program
shows before and after, with a NULL value.
A malformed line (unknown or missing setting, bad number or feature name)
stops the build with its line number.  The feature names are checked
against kernel/sched/features.h.
"""
import os
import re
import sys

from ..paths import ROOT
FEATURES_H = os.path.join(ROOT, "kernel", "sched", "features.h")
TIMES = ("latency", "min_gran", "wakeup_gran", "std_gran", "sleeper_slice")
COUNTS = ("nr_latency", "nr_latency_max", "fork_update_clock")
REQUIRED = TIMES + COUNTS


def parse_ns(text):
    """"6ms" / "0.75ms" / "750000" -> ns (an integer)."""
    if text.endswith("ms"):
        ns = float(text[:-2]) * 1e6
        if ns != int(ns):
            raise ValueError(text)
        return int(ns)
    return int(text)


def feature_defaults():
    """[(name, default on)] in bit order, from kernel/sched/features.h."""
    with open(FEATURES_H) as f:
        return [(n, on == "1") for n, on in re.findall(r"^SCHED_FEAT\((\w+),\s*([01])\)", f.read(), re.M)]


def feature_names():
    return {n for n, _ in feature_defaults()}


def parse(path, eevdf=False):
    """[(name, alias, settings dict, line number)] from PATH; with EEVDF also
    the class=eevdf presets (settings {"class": "eevdf"}).  Every settings
    dict has "desc", the description."""
    known = feature_names()
    presets = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3:
                sys.exit(f"{path}:{lineno}: expected NAME<TAB>description<TAB>settings")
            name, _desc, words = fields
            if words.split() == ["class=eevdf"]:
                if eevdf:   # the EEVDF class sets itself up (eevdf_tunables.c)
                    presets.append((name, None, {"class": "eevdf", "desc": _desc}, lineno))
                continue
            settings, alias, fset, fclear = {}, None, [], []
            for word in words.split():
                key, _, value = word.partition("=")
                try:
                    if key in TIMES:
                        settings[key] = parse_ns(value)
                    elif key in COUNTS:
                        settings[key] = int(value)
                    elif key == "alias":
                        alias = value
                    elif key == "features":
                        for feat in value.split(","):
                            if feat[:1] not in "+-" or feat[1:] not in known:
                                raise ValueError(feat)
                            (fset if feat[0] == "+" else fclear).append(feat[1:])
                    else:
                        sys.exit(f"{path}:{lineno}: unknown setting {key!r}")
                except ValueError as e:
                    sys.exit(f"{path}:{lineno}: bad value in {word!r} ({e})")
            missing = [k for k in REQUIRED if k not in settings]
            if missing:
                sys.exit(f"{path}:{lineno}: {name}: missing {', '.join(missing)}")
            settings["set"], settings["clear"], settings["desc"] = fset, fclear, _desc
            presets.append((name, alias, settings, lineno))
    if not presets:
        sys.exit(f"{path}: no preset")
    return presets


def feature_mask(names):
    return " | ".join(f"FEAT({n})" for n in names) or "0"


def c_str(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"' if text is not None else "NULL"


# The run-time writes of a CFS preset, in sched_preset_apply()'s order:
# (file, settings key); "sched_features" is the feature line.
USER_STEPS = [("sched_latency_ns", "latency"), ("sched_min_granularity_ns", "min_gran"),
              ("sched_wakeup_granularity_ns", "wakeup_gran"), ("sched_nr_latency", "nr_latency"),
              ("sched_features", None), ("sched_std_granularity_ns", "std_gran"),
              ("sched_nr_latency_max", "nr_latency_max"),
              ("sched_sleeper_wakeup_slice_ns", "sleeper_slice"),
              ("sched_fork_update_clock", "fork_update_clock")]
EEVDF_SHOWN = ["sched_base_slice_ns", "sched_features"]


def main_user(path):
    defaults = feature_defaults()
    print("/* generated by tools/genpresets --user from tools/presets: do not edit */")
    for name, alias, s, _lineno in parse(path, eevdf=True):
        if s.get("class") == "eevdf":
            steps = [f"{{ {c_str(f)}, NULL }}" for f in EEVDF_SHOWN]
        else:
            on = [(f in s["set"]) or (dflt and f not in s["clear"]) for f, dflt in defaults]
            feats = " ".join(("" if o else "NO_") + f for (f, _), o in zip(defaults, on))
            steps = [f"{{ {c_str(f)}, {c_str(feats if k is None else str(s[k]))} }}"
                     for f, k in USER_STEPS]
        print(f'{{ {c_str(name)}, {c_str(alias)}, {c_str(s["desc"])}, '
              f'{1 if s.get("class") == "eevdf" else 0}, {{ {", ".join(steps)} }} }},')


def main():
    args = sys.argv[1:]
    user = args[:1] == ["--user"]
    if user:
        args = args[1:]
    path = args[0] if args else os.path.join(ROOT, "tools", "presets")
    if user:
        return main_user(path)
    print("/* generated by tools/genpresets from tools/presets: do not edit */")
    for name, alias, s, _lineno in parse(path):
        alias_c = f'"{alias}"' if alias else "NULL"
        print(f'{{ "{name}", {alias_c}, {s["latency"]}U, {s["min_gran"]}U, '
              f'{s["wakeup_gran"]}U, {s["nr_latency"]}U, {feature_mask(s["set"])}, '
              f'{feature_mask(s["clear"])}, {s["std_gran"]}U, {s["nr_latency_max"]}U, '
              f'{s["sleeper_slice"]}U, {s["fork_update_clock"]} }},')
