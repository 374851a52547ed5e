"""tools/granule/gnuplot.py - the pictures of the bench, the simulator and the tracer:
one gnuplot script run once per terminal (PNG and SVG)."""
import subprocess


class GnuplotError(RuntimeError):
    """gnuplot failed: the report would name pictures that do not exist."""


def gnuplot(script, out_base, terms=(("pngcairo noenhanced size 900,560", "png"),
                                     ("svg noenhanced size 900,560", "svg"))):
    """Run SCRIPT (with @TERM and @OUT placeholders) once per terminal.  Plain text, not
    gnuplot's enhanced mode: a label such as sched_base_slice_ns keeps its underscores."""
    for term, ext in terms:
        text = script.replace("@TERM", term).replace("@OUT", f"{out_base}.{ext}")
        p = subprocess.run(["gnuplot"], input=text, text=True, capture_output=True, check=False)
        if p.returncode:
            raise GnuplotError(f"gnuplot failed for {out_base}.{ext}: {p.stderr.strip()[:300]}")
