"""tools/granule/stats.py - one configuration over several load seeds: spread and verdicts.

A configuration (kernel, preset, mode, load, HZ) runs once per load seed
(kbuild-load's seed=N; every seed is a different but equally plausible
make -j10).  Under -icount each run is exact, so the only noise in a finding
is the choice of seed, and the spread over seeds is what a reader needs to
tell a finding from chance.

  Spread(values)          median, min, max of one figure over the seeds
  ratio_per_seed(a, b)    a[s] / b[s] for the seeds both configurations ran
  verdict(ratios)         a claim "A exceeds B" (ratio > 1) in words

The median of an even count is the mean of the two middle values, as
statistics.median computes it.
"""
import statistics


class Spread:
    """A figure over seeds: .median, .lo, .hi, .values (in seed order), .n."""

    def __init__(self, values):
        self.values = [v for v in values if v is not None]
        self.n = len(self.values)
        if self.n:
            self.median = statistics.median(self.values)
            self.lo, self.hi = min(self.values), max(self.values)
        else:
            self.median = self.lo = self.hi = None

    def fmt(self, fmt="{:.1f}"):
        """'12.3' for one seed, '12.3 [10.1–15.0]' (median [min–max]) for several, '–' for none.
        FMT is a format string or a function of the value."""
        if not self.n:
            return "–"
        text = fmt if callable(fmt) else fmt.format
        if self.n == 1 or self.lo == self.hi:
            return text(self.median)
        return f"{text(self.median)} [{text(self.lo)}–{text(self.hi)}]"

    def rel_range(self):
        """(max - min) / median: how far the seeds move this figure; None without a median."""
        if not self.n or not self.median:
            return None
        return (self.hi - self.lo) / self.median


def ratio_per_seed(a, b):
    """{seed: a[seed] / b[seed]} over the seeds present (and non-zero) in both dicts."""
    return {s: a[s] / b[s] for s in sorted(set(a) & set(b))
            if a[s] is not None and b[s]}


def verdict(ratios):
    """A claim read as 'the ratio exceeds 1', judged over the seeds' ratios.

    'holds in K/K seeds' when every seed agrees, 'holds in k/K: within seed
    spread' when only some do, 'does not hold' when none does; '–' without
    data.  A ratio of exactly 1 is not a holding claim (no effect)."""
    vals = list(ratios.values()) if isinstance(ratios, dict) else list(ratios)
    if not vals:
        return "–"
    k, n = sum(1 for v in vals if v > 1), len(vals)
    if k == n:
        return f"holds in {n}/{n} seeds"
    if k:
        return f"holds in {k}/{n}: within seed spread"
    return "does not hold"


def seeds_for_stable_verdict(ratios):
    """The smallest prefix of the seeds (in seed order) after which the
    verdict's direction (majority above or below 1) never changes again, or
    None without data.  A measure of how many seeds a stable verdict needs."""
    vals = [ratios[s] for s in sorted(ratios)] if isinstance(ratios, dict) else list(ratios)
    if not vals:
        return None
    signs = []
    for i in range(1, len(vals) + 1):
        above = sum(1 for v in vals[:i] if v > 1)
        signs.append(1 if above * 2 > i else (-1 if above * 2 < i else 0))
    need = len(vals)
    for i in range(len(vals) - 1, -1, -1):
        if signs[i] != signs[-1]:
            break
        need = i + 1
    return need
