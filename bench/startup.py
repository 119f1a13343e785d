#!/usr/bin/python3
"""Whole-process start-up benchmark: CPU time (user + sys, from getrusage of the
children) per invocation of short `ptsim` commands, paired against HotSpot on the same
inputs. Commands run interleaved (one of each per round) so that load on shared cores
hits them alike; prints the median and the minimum per command.

usage: bench/startup.py [--ptsim build/ptsim] [--before OTHER_PTSIM] [--hotspot PATH]
                        [--rounds 200]

Cases: `ptsim thermal` on a small block model (tests/thermal_cli/data: four.flp,
four.config and the first 10 rows of four.ptrace; transient trace and steady file
written, on tmpfs where there is one), the same command line for HotSpot, `ptsim
validate` of scenarios/default.yaml and of scenarios/server-llm-serving.yaml (the
8-GPU server preset's templates and loops), and /bin/true as the floor of any process
start on this machine.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_ms(cmd, cwd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if rc != 0:
        sys.exit("startup.py: %s exited with %d" % (" ".join(cmd), rc))
    return (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptsim", default=os.path.join(root, "build", "ptsim"))
    ap.add_argument("--before", help="another ptsim to pair against (e.g. an older build)")
    ap.add_argument("--hotspot", help="a HotSpot executable (HotSpot 7, its default build)")
    ap.add_argument("--rounds", type=int, default=200)
    a = ap.parse_args()

    data = os.path.join(root, "tests", "thermal_cli", "data")
    # Outputs on tmpfs where there is one: rewriting a file on ext4 flushes it at close
    # (auto_da_alloc), file-system work that would swamp the start-up being measured.
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="ptsim-startup-", dir=shm)
    with open(os.path.join(data, "four.ptrace")) as f, open(os.path.join(work, "four10.ptrace"), "w") as g:
        g.writelines(f.readlines()[:11])  # the header and 10 rows
    model = ["-c", os.path.join(data, "four.config"), "-f", os.path.join(data, "four.flp"),
             "-p", "four10.ptrace", "-model_type", "block"]
    scenario = os.path.join(root, "scenarios", "default.yaml")

    cases = [("process floor: /bin/true", ["/bin/true"])]
    ptsims = [("", a.ptsim)] + ([(" (before)", a.before)] if a.before else [])
    for tag, exe in ptsims:
        cases.append(("ptsim thermal, 4-block model%s" % tag,
                      [exe, "thermal"] + model + ["-o", "pt.ttrace", "-steady_file", "pt.steady"]))
    if a.hotspot:
        cases.append(("HotSpot, same inputs", [a.hotspot] + model + ["-o", "hs.ttrace", "-steady_file", "hs.steady"]))
    for tag, exe in ptsims:
        cases.append(("ptsim validate default.yaml%s" % tag, [exe, "validate", scenario]))
    # A scenario on the 8-GPU server preset: three files, templates and loops expanded.
    server = os.path.join(root, "scenarios", "server-llm-serving.yaml")
    for tag, exe in ptsims:
        cases.append(("ptsim validate server-llm-serving.yaml%s" % tag, [exe, "validate", server]))

    times = [[] for _ in cases]
    for _ in range(a.rounds):
        for i, (_, cmd) in enumerate(cases):
            times[i].append(cpu_ms(cmd, work))

    print("CPU time per invocation (user + sys), %d interleaved rounds" % a.rounds)
    print("%-50s %10s %10s" % ("command", "median ms", "min ms"))
    for (name, _), t in zip(cases, times):
        print("%-50s %10.2f %10.2f" % (name, statistics.median(t), min(t)))
    for f in os.listdir(work):
        os.remove(os.path.join(work, f))
    os.rmdir(work)


if __name__ == "__main__":
    main()
