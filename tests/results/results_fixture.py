"""Real ptsim runs for the end-to-end tests of reports, plots and traces.

Every test makes its own runs (2 simulated seconds each, a fraction of a second of wall
time) in a fresh folder, so that tests run in parallel and never see each other's files.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SHORT = ["--set", "duration=2 s"]
# Poisson arrivals, so that seeds matter (fixed-rate arrivals would make replicates equal).
POISSON = ["--set", "workload.streams.camera.arrival.kind=poisson"]
# A thermal control temperature just above ambient, so that a 2 s run under the performance
# governor throttles (from the thermal governor's second poll on).
HOT = ["--set", "policy.governor=performance", "--set", "thermal.ambient=33 degC",
       "--set", "policy.thermal.control_temp=33.5 degC"]

GOVERNORS = ("performance", "powersave", "schedutil")
SCHEDUTIL_SEEDS = (1, 2, 3)


class Runs:
    """ptsim and postproc from the command line: test.py PTSIM POSTPROC_DIR."""

    def __init__(self, name):
        self.ptsim = os.path.abspath(sys.argv[1])
        self.postproc = os.path.abspath(sys.argv[2])
        sys.path.insert(0, self.postproc)
        self.dir = tempfile.mkdtemp(prefix=f"ptsim-{name}-")

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def ptsim_cmd(self, *args, check=True):
        """Runs `ptsim ARGS` in the scratch folder; returns CompletedProcess (text)."""
        p = subprocess.run([self.ptsim, *args], cwd=self.dir, capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"ptsim {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
        return p

    def run(self, out, *extra):
        """A 2-s run of the default scenario into `out` (relative to the scratch folder)."""
        path = os.path.join(self.dir, out)
        os.makedirs(os.path.dirname(path) or self.dir, exist_ok=True)
        self.ptsim_cmd("run", "-q", "-o", path, *SHORT, *extra)
        return path

    def governor_sweep(self, folder="sweep"):
        """A sweep-shaped folder (FOLDER/runs/<run_id>.h5, as `ptsim sweep` lays it out):
        performance and powersave once, schedutil with three seeds; Poisson arrivals."""
        paths = {}
        for g in GOVERNORS:
            seeds = SCHEDUTIL_SEEDS if g == "schedutil" else (1,)
            for seed in seeds:
                run_id = f"{g}-s{seed}"
                paths[run_id] = self.run(os.path.join(folder, "runs", run_id + ".h5"), *POISSON,
                                         "--set", f"policy.governor={g}", "--seed", str(seed))
        return os.path.join(self.dir, folder), paths


def summary_of(path):
    """The file's summary as {metric: value}, read with h5py (not with ptsim's reader)."""
    import h5py
    with h5py.File(path, "r") as f:
        return {k: float(v[()]) for k, v in f["summary"].items()}


# Student t quantiles t(0.975, df), from the published table (independent of the code).
T_975 = {1: 12.7062047361747, 2: 4.30265272974946, 3: 3.18244630528371, 4: 2.77644510519779}
