"""python3 -m granule.sim calibrate|replay|sweep|rtapp ARGS: the subcommands of tools/sim
that are Python (tools/sim runs it with tools/ on PYTHONPATH; the others are build/sim)."""
import sys


def main():
    cmd = sys.argv.pop(1) if len(sys.argv) > 1 else ""
    if cmd == "calibrate":
        from .calibrate import main as run
    elif cmd == "replay":
        from .replay import main as run
    elif cmd == "sweep":
        from .sweep import main as run
    elif cmd == "rtapp":
        from .rtapp_sim import main as run
    else:
        sys.exit(f"python3 -m granule.sim: unknown subcommand '{cmd}' (expected calibrate, replay, sweep or rtapp)")
    sys.exit(run())


main()
