"""tools/granule/bench/jobs.py - the bench's runs as self-contained jobs, and a runner for them.

A job is one boot: a Granule kernel command line, or a Linux preset with a
run= string (tools/granule/peer/linux.py).  Jobs are plain dicts, so a plan file (one
JSON object per line) can be run anywhere the repository is built at the same
commit, by tools/bench itself, by GNU parallel on this machine, or by GNU
parallel over ssh on many machines (docs/EXPERIMENT.md):

  job keys   id (plan order, "0001"...), label, kernel ("granule" or
             "linux-6.1"/"linux-6.12"), preset, mode, load, hz, seed, cmdline
             (Granule) or run (Linux), image (sha256 of build/granule.elf, or
             of the Linux initramfs inputs), bench ("experiment"/"microbench"/
             "trace": an experiment with the tracer on, tools/granule/bench/trace.py;
             "measure": experiment measure=..., tools/bench_rt.py; "rtapp": rt-app's
             per-thread logs, tools/bench_rtapp.py)
  optional   smp (the CPUs, 1 if absent: tools/bench_smp.py),
             module (a boot module's path under the repository, e.g.
             build/rt-tests/rt-tests.tar), memory (QEMU's -m, "128M"), env
             (Linux: environment words for the programs), expect (the bench
             names whose RESULT lines make the run good; default
             wakeup-latency), threads (rtapp: the logs the run must print)

  run_job(job)          boots it; returns the run dict (job + results, hist, ...)
  run_all(jobs, n)      N at a time, a progress line with an ETA per finished run;
                        resume=DIR reuses the runs an interrupted bench saved there
  write_plan / read_plan, save_result / load_results (DIR/jobs/ID.json)

A run dict never holds wall-clock figures: those go to DIR/timing.json, so
the results (and the report) of -j1 and -j8 are the same bytes.
"""
import concurrent.futures as cf
import hashlib
import json
import os
import re
import sys
import time

from .. import qemu as gq
from ..debian.fetch import sha256_of as sha256
from .. import rtapp
from ..peer import linux as lp
from ..trace import worst

HIST_RE = re.compile(r"^(\d{6}) (\d{6})$")
BUCKET_RE = re.compile(r"^# Histogram bucket width: (\d+) us")


def image_hash(kernel):
    """What a job's figures depend on besides its command line."""
    if kernel == "granule":
        return sha256(gq.KERNEL)
    h = hashlib.sha256()
    name = kernel.split("-", 1)[1]
    for path in [os.path.join(lp.kernel_dir(name), "vmlinuz"), lp.busybox_path()] + \
            sorted(os.path.join(lp.USER_DIR, f) for f in os.listdir(lp.USER_DIR) if f.endswith(".elf")):
        h.update(sha256(path).encode())
    return h.hexdigest()


def parse_output(lines):
    """RESULT objects by bench name, the latency histogram [(lo_us, n)], its bucket width."""
    res, hist, bucket, in_hist = {}, [], 100, False
    for line in lines:
        if line.startswith("RESULT "):
            try:
                r = json.loads(line[len("RESULT "):])
                res[r.get("bench", "?")] = r
            except ValueError:
                pass
        m = BUCKET_RE.match(line)
        if m:
            bucket = int(m.group(1))
        if line == "# Histogram":
            in_hist = True
            continue
        if in_hist:
            m = HIST_RE.match(line)
            if m:
                hist.append((int(m.group(1)), int(m.group(2))))
            elif line.startswith("#"):
                in_hist = False
    return res, hist, bucket


def run_job(job, timeout=900, check_image=True):
    """Boot JOB once; returns (run dict, wall seconds)."""
    if check_image and job.get("image") and job["image"] != image_hash(job["kernel"]):
        raise SystemExit(f"bench: job {job['id']} was planned for another image "
                         f"({job['image'][:12]}); rebuild at the plan's commit")
    t = time.time()
    module = os.path.join(gq.ROOT, job["module"]) if job.get("module") else None
    memory = job.get("memory", "128M")
    if job["kernel"] == "granule":
        r = gq.run(job["cmdline"], timeout=timeout, memory=memory, smp=job.get("smp", 1),
                   extra=["-initrd", module] if module else [])
        lines, timed_out, status = r.lines, r.timed_out, r.status
    else:
        r = lp.run(job["preset"], job["run"], env=job.get("env"), timeout=timeout, module=module,
                   memory=memory, smp=job.get("smp", 1))
        lines, timed_out, status = r.lines, r.timed_out, r.status()
    res, hist, bucket = parse_output(lines)
    out = dict(job)
    out.update(results=res, hist=hist, bucket_us=bucket, timed_out=timed_out, status=status)
    if job.get("bench") == "trace":     # a traced run: keep the worst sample's attribution
        out["trace"] = worst.analyse(lines)
    if job.get("bench") == "rtapp":     # rt-app-logs' output: every thread's period rows
        out["logs"] = rtapp.split_logs("\n".join(lines))
        if timed_out or status != 0 or len(out["logs"]) < job.get("threads", 1):
            out["error"] = "\n".join(lines[-15:])
    elif job.get("expect"):
        if any(bench not in res for bench in job["expect"]):
            out["error"] = "\n".join(lines[-15:])
    elif "wakeup-latency" not in res and job.get("bench") != "microbench" or \
            job.get("bench") == "microbench" and "microbench" not in res:
        out["error"] = "\n".join(lines[-15:])
    return out, round(time.time() - t, 1)


def summary(run):
    wl, mb = run["results"].get("wakeup-latency"), run["results"].get("microbench")
    if run.get("bench") == "rtapp" and "error" not in run:
        return f"{len(run['logs'])} logs, {sum(map(len, run['logs'].values()))} periods"
    if run.get("expect") and "error" not in run:
        return " ".join(f"{b} {run['results'][b].get('max_us', run['results'][b].get('time_s'))}"
                        for b in run["expect"])
    if wl:
        return f"max {wl.get('max_us')} avg {wl.get('avg_us')} p99 {wl.get('p99_us')} us"
    if mb:
        return f"ctxsw {mb.get('ctxsw_yield_ns')} ns, fork {mb.get('fork_ns')} ns"
    return "NO RESULT (" + run.get("error", "")[-80:].replace("\n", " | ") + ")"


def source_commit():
    """The commit the image and programs are built from (granule.qemu.source_commit)."""
    return gq.source_commit()


def hms(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def reusable(out_dir, job):
    """The run of JOB that an earlier, interrupted bench saved in OUT_DIR/jobs, if it is this
    very job (every key of the job the same: the image's sha256, the command line, the seed,
    the module) and it did not fail; else None.  A run of another image never matches."""
    path = os.path.join(out_dir, "jobs", f"{job['id']}.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    if "error" in run or any(run.get(k) != v for k, v in job.items()):
        return None
    return run


def run_all(jobs, parallel, timeout=900, sink=None, resume=None):
    """Run JOBS, PARALLEL at a time.  SINK(run, wall) is called as each lands
    (to save it at once, so an interrupted matrix keeps what it measured).
    RESUME (a bench's output directory): the jobs whose run is saved there
    (reusable()) are not booted again.  Returns (runs in plan order, {id: wall
    seconds}; a reused run's wall time is the one saved with it)."""
    done, walls, t0 = {}, {}, time.time()
    for j in jobs if resume else ():
        run = reusable(resume, j)
        if run:
            done[j["id"]] = run
            wall = os.path.join(resume, "jobs", f"{j['id']}.wall")
            if os.path.exists(wall):
                with open(wall, encoding="utf-8") as f:
                    walls[j["id"]] = float(f.read())
    if done:
        print(f"bench: {len(done)} of {len(jobs)} runs reused from {resume}/jobs (the same jobs, "
              "the same image)", flush=True)
    todo = [j for j in jobs if j["id"] not in done]
    print(f"bench: {len(todo)} runs, {parallel} at a time", flush=True)
    with cf.ThreadPoolExecutor(max_workers=parallel) as ex:
        futs = {ex.submit(run_job, j, timeout): j for j in todo}
        for f in cf.as_completed(futs):
            run, wall = f.result()
            done[run["id"]], walls[run["id"]] = run, wall
            if sink:
                sink(run, wall)
            elapsed, ran = time.time() - t0, len(done) - (len(jobs) - len(todo))
            eta = elapsed / ran * (len(jobs) - len(done))
            print(f"[{len(done):4d}/{len(jobs)}] {hms(elapsed)} ETA {hms(eta)}  "
                  f"{run['label']:<58s} {summary(run)}", flush=True)
    return [done[j["id"]] for j in jobs], walls


def write_plan(path, jobs, argv):
    """A header line {"plan": 1, "argv": [...]} (the command the report names), then a job a line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"plan": 1, "argv": argv}) + "\n")
        for j in jobs:
            f.write(json.dumps(j, sort_keys=True) + "\n")


def _plan_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def read_plan(path):
    """The plan's jobs, in order."""
    return [j for j in _plan_lines(path) if "plan" not in j]


def plan_argv(path):
    """The command line the plan was written for."""
    return next(j["argv"] for j in _plan_lines(path) if "plan" in j)


def save_result(out_dir, run, wall=None):
    """DIR/jobs/ID.json (the run) and DIR/jobs/ID.wall (its wall seconds)."""
    d = os.path.join(out_dir, "jobs")
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f"{run['id']}.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(run, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(d, f"{run['id']}.json"))
    if wall is not None:
        with open(os.path.join(d, f"{run['id']}.wall"), "w", encoding="utf-8") as f:
            f.write(f"{wall}\n")


def load_results(out_dir, plan=None):
    """The runs saved in DIR/jobs, in plan order (or id order); missing jobs are named."""
    d = os.path.join(out_dir, "jobs")
    have = {f[:-5]: os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json")} \
        if os.path.isdir(d) else {}
    ids = [j["id"] for j in plan] if plan else sorted(have)
    missing = [i for i in ids if i not in have]
    if missing:
        print(f"bench: {len(missing)} jobs have no result yet: {', '.join(missing[:10])}"
              + (" ..." if len(missing) > 10 else ""), file=sys.stderr)
    runs, walls = [], {}
    for i in ids:
        if i in have:
            with open(have[i], encoding="utf-8") as f:
                runs.append(json.load(f))
            wall = have[i][:-5] + ".wall"
            if os.path.exists(wall):
                walls[i] = float(open(wall, encoding="utf-8").read())
    return runs, walls
