"""tools/ as one package (tools/granule/, docs/ARCHITECTURE.md "tools/"): imports go
downward only, and pyflakes finds nothing.

The import graph is read from the sources (ast, every import statement, also those
inside functions), resolved to the package's modules.  A module may import the
modules of its own job (without a circle) and those of the jobs below its own in
LAYERS; nothing imports a job beside it or above it.  The commands in tools/ are
the top: a few lines that put tools/ on the path and call into the package.  No
module of the package edits sys.path or needs an E402 waiver.  Each check is
also run on a small package made to break it, so that it cannot pass by
matching nothing.
"""
import ast
import os
import re
import subprocess
import sys

import pytest

TOOLS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
PKG = os.path.join(TOOLS, "granule")

# The jobs from the top down; a job may import the jobs of the layers after its own.
LAYERS = [
    {"check", "docs", "measure", "run"},   # the test suite, robustness, measurements, docs writers, make run
    {"sim"},                               # the simulator: it checks itself against the bench's QEMU runs
    {"bench"},                             # the bench: its traced runs use the tracer's reading
    {"trace", "lab", "image"},             # the tracer, the labs, what the build packs
    {"peer"},                              # Linux under the same QEMU
    {"qemu"},                              # the shared runner
    {"debian", "stats", "gnuplot", "rtapp"},   # pinned Debian packages; seed statistics; pictures; rt-app files
    {"paths"},                             # where things are
]


def modules(pkg_dir):
    """{dotted name: path} of every module of the package in PKG_DIR."""
    top = os.path.basename(pkg_dir)
    out = {}
    for d, dirs, files in os.walk(pkg_dir):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        rel = os.path.relpath(d, os.path.dirname(pkg_dir)).replace(os.sep, ".")
        for f in files:
            if f.endswith(".py"):
                name = rel if f == "__init__.py" else f"{rel}.{f[:-3]}"
                out[name] = os.path.join(d, f)
    assert top in out, f"{pkg_dir} has no __init__.py"
    return out


def imports(name, path, mods):
    """The package's modules that module NAME imports."""
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    top = name.split(".")[0]
    found = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            else:
                base = ""
            target = ".".join(x for x in (base, node.module) if x)
            if target.split(".")[0] != top:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in mods else target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == top)
    return found


def job(name):
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def problems(pkg_dir, layers):
    """Upward or sideways imports, imports of what is not there, and circles."""
    mods = modules(pkg_dir)
    rank = {j: i for i, layer in enumerate(layers) for j in layer}
    graph, bad = {}, []
    for name, path in sorted(mods.items()):
        graph[name] = imports(name, path, mods) - {name}
        for dst in sorted(graph[name]):
            if dst not in mods:
                bad.append(f"{name} imports {dst}, which is no module of the package")
            elif job(dst) == "" or job(dst) not in rank:
                bad.append(f"{name} imports {dst}: {job(dst) or 'the package itself'} has no layer")
            elif job(name) in rank and job(dst) != job(name) and rank[job(dst)] <= rank[job(name)]:
                bad.append(f"{name} imports {dst}: {job(dst)} is not below {job(name)}")
        if job(name) and job(name) not in rank:
            bad.append(f"{name}: its job {job(name)} has no layer in LAYERS")
    state = {}

    def visit(n, stack):
        state[n] = 1
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                bad.append("circle: " + " -> ".join(stack[stack.index(m):] + [m]))
            elif m in graph and not state.get(m):
                visit(m, stack + [m])
        state[n] = 2

    for n in sorted(graph):
        if not state.get(n):
            visit(n, [n])
    return bad


def commands():
    """The Python commands in tools/ (a python shebang)."""
    out = []
    for f in sorted(os.listdir(TOOLS)):
        p = os.path.join(TOOLS, f)
        if os.path.isfile(p):
            with open(p, encoding="utf-8", errors="replace") as fh:
                if re.match(r"#!.*python", fh.readline()):
                    out.append(p)
    return out


def test_the_package_imports_downward_only():
    assert problems(PKG, LAYERS) == []


def test_the_check_catches_a_circle_an_upward_import_and_a_missing_layer(tmp_path):
    pkg = tmp_path / "granule"
    for d in ("", "low", "high", "odd"):
        (pkg / d).mkdir(exist_ok=True)
        (pkg / d / "__init__.py").write_text('"""x"""\n')
    (pkg / "low" / "a.py").write_text("from ..high import b\n")                 # upward
    (pkg / "high" / "b.py").write_text("from . import c\n")
    (pkg / "high" / "c.py").write_text("def f():\n    from .b import g\n")    # b -> c -> b
    (pkg / "odd" / "d.py").write_text("from ..low import nothing\n")           # no layer for odd
    found = "\n".join(problems(str(pkg), [{"high"}, {"low"}]))
    assert "granule.low.a imports granule.high.b: high is not below low" in found
    assert "circle: granule.high.b -> granule.high.c -> granule.high.b" in found
    assert "its job odd has no layer" in found


def test_no_module_edits_sys_path_or_waives_e402():
    for name, path in modules(PKG).items():
        text = open(path, encoding="utf-8").read()
        assert "sys.path" not in text, f"{path} edits sys.path: import as a package does"
        assert "E402" not in text, path


def test_commands_are_thin():
    """Each Python command: no code of its own, tools/ on the path once, then the package."""
    cmds = commands()
    assert len(cmds) >= 20, cmds
    for p in cmds:
        tree = ast.parse(open(p, encoding="utf-8").read(), p)
        defs = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        assert not defs, f"{p} defines {defs}: its code belongs in tools/granule/"
        mods = {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names} | \
               {n.module for n in tree.body if isinstance(n, ast.ImportFrom)}
        assert mods - {"os", "sys"} and all(m.startswith("granule") for m in mods - {"os", "sys"}), (p, mods)
        assert open(p, encoding="utf-8").read().count("sys.path.insert") == 1, p


def pyflakes(paths):
    return subprocess.run([sys.executable, "-m", "pyflakes"] + paths, capture_output=True, text=True)


def test_pyflakes_finds_nothing():
    p = pyflakes([PKG] + commands())
    if "No module named pyflakes" in p.stderr:
        pytest.fail("pyflakes is missing (Debian's python3-pyflakes): run tools/deps")
    assert p.returncode == 0 and not p.stdout, p.stdout + p.stderr


def test_pyflakes_catches_what_it_should(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f():\n    return undefined_name\n")
    p = pyflakes([str(bad)])
    assert p.returncode != 0
    assert "'os' imported but unused" in p.stdout and "undefined name 'undefined_name'" in p.stdout, p.stdout
