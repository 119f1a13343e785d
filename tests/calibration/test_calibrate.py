#!/usr/bin/python3
"""`ptsim calibrate` end to end.

A synthetic table: ptsim itself at NPU efficiency 0.55 (the default phone scenario, 1 s,
performance governor) at four arrival rates, its median latency and average power read from
the result files. Calibrating the efficiency from a start of 0.8 within [0.3, 1.0] must find
0.55 again (the data's own value, where the error is 0), hold out the row asked, and write an
overlay that, run as a scenario with each row's conditions, gives exactly the simulated values
(and so the errors) fit.csv reports. A second call with --resume simulates nothing new. Bad
calibration files exit 2 at file:line:column before any run.

Usage: test_calibrate.py PTSIM SCENARIOS_DIR
"""
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py

ptsim, scenarios = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="ptsim-test-calibrate-")
problems = []
PATH = "platform.components.npu.efficiency"
RATES = ["10 Hz", "20 Hz", "40 Hz", "60 Hz"]


def check(cond, what):
    if not cond:
        problems.append(what)


def run(*args):
    return subprocess.run([ptsim, *args], capture_output=True, text=True, cwd=work)


def metrics(h5):
    with h5py.File(h5, "r") as h:
        return float(h["summary"]["latency_p50_s"][()]), float(h["summary"]["avg_power_W"][()])


base = os.path.join(work, "base.yaml")
with open(base, "w") as f:
    f.write(f"extends: {os.path.join(scenarios, 'default.yaml')}\npolicy: {{ governor: performance }}\n")

def truth(tag, *settings):
    """ptsim itself with `settings` (PATH=VALUE each), 1 s at each rate: (rate, latency s, power W) per row."""
    rows_ = []
    sets = [x for setting in settings for x in ("--set", setting)]
    for i, rate in enumerate(RATES):
        out_ = os.path.join(work, f"{tag}{i}.h5")
        r_ = run("run", "-q", "-o", out_, base, "--set", "duration=1 s", *sets,
                 "--set", f"workload.streams.camera.arrival.rate={rate}")
        assert r_.returncode == 0, r_.stderr
        rows_.append((rate, *metrics(out_)))
    return rows_


def power_fit(tag, settings, parameter):
    """Average power made by ptsim with `settings`, fitted by `parameter` (a line of the
    calibration's parameters), row 2 held out: (the calibrate run, its output folder)."""
    with open(os.path.join(work, f"{tag}table.csv"), "w") as f:
        f.write(f"# synthetic: ptsim with {', '.join(settings)}, duration 1 s\n")
        f.write("workload.streams.camera.arrival.rate,power_W\n")
        for rate, _, p in truth(f"{tag}truth", *settings):
            f.write(f"{rate},{p!r}\n")
    calib_ = os.path.join(work, f"{tag}calib.yaml")
    with open(calib_, "w") as f:
        f.write(f"""scenario: base.yaml
set: {{ duration: "1 s" }}
measurements: {tag}table.csv
targets:
  power_W: {{ metric: avg_power_W }}
parameters:
  {parameter}
holdout: {{ rows: [2] }}
optimizer: {{ global_evals: 6, local_evals: 14 }}
""")
    out_ = os.path.join(work, f"{tag}fit")
    return run("calibrate", calib_, "-o", out_, "-j", "2"), out_


# The measurements: ptsim at efficiency 0.55.
table = os.path.join(work, "table.csv")
with open(table, "w") as f:
    f.write("# synthetic: ptsim at platform.components.npu.efficiency = 0.55, duration 1 s\n")
    f.write("workload.streams.camera.arrival.rate,latency_ms,power_W\n")
    for rate, lat, p in truth("truth", f"{PATH}=0.55"):
        f.write(f"{rate},{lat * 1e3!r},{p!r}\n")

calib = os.path.join(work, "calib.yaml")
CALIB = f"""scenario: base.yaml
set: {{ duration: "1 s" }}
measurements: table.csv
targets:
  latency_ms: {{ metric: latency_p50_s, scale: 0.001 }}
  power_W: {{ metric: avg_power_W, weight: 1 }}
parameters:
  {PATH}: {{ bounds: [0.3, 1.0], start: 0.8 }}
holdout: {{ rows: [3] }}
optimizer: {{ global_evals: 6, local_evals: 14 }}
"""
with open(calib, "w") as f:
    f.write(CALIB)

out = os.path.join(work, "fit")
r = run("calibrate", calib, "-o", out, "-j", "2")
check(r.returncode == 0, f"calibrate: exit {r.returncode}\n{r.stderr}")
check("best" in r.stderr, "no progress line with the best error so far")
check("distinct value" not in r.stderr, f"a fit whose error moves with its parameter warned of a flat objective:\n{r.stderr[-600:]}")
for name in ("calibrated.yaml", "fit.csv", "fit.h5", "fit.png"):
    check(os.path.isfile(os.path.join(out, name)), f"no {name}")
    check(not os.path.exists(os.path.join(out, name + ".part")), f"{name}.part left behind")

with h5py.File(os.path.join(out, "fit.h5"), "r") as h:
    fitted = float(h["parameters"]["value"][0])
    evaluations = int(h.attrs["evaluations"])
    first_runs = int(h.attrs["runs_simulated"])
    check(h["parameters"]["low"][0] == 0.3 and h["parameters"]["high"][0] == 1.0, "bounds in fit.h5")
# The error is 0 at 0.55 and grows away from it; the optimiser's resolution (xtol 1e-4 of the
# 0.7 range) and the flat spots of a discrete-event run allow a little either side.
print(f"fitted efficiency {fitted!r} after {evaluations} evaluations, {first_runs} runs simulated")
check(abs(fitted - 0.55) < 0.01, f"fitted efficiency {fitted}, expected ~0.55")
check(evaluations <= 1 + 6 + 14, f"{evaluations} evaluations, budget 21")

rows = list(csv.DictReader(open(os.path.join(out, "fit.csv"))))
check({r_["role"] for r_ in rows if r_["row"] == "3"} == {"held_out"}, "row 3 not held out")
check({r_["role"] for r_ in rows if r_["row"] != "3"} == {"fitted"}, "rows 1, 2, 4 not fitted")
check(len(rows) == 8, f"fit.csv: 8 lines expected (4 rows x 2 targets), found {len(rows)}")

overlay = os.path.join(out, "calibrated.yaml")
text = open(overlay).read()
check("extends:" in text and "table.csv" in text and "content hash" in text, "overlay provenance")
check("within [0.3, 1]" in text, "overlay: the bounds beside the fitted value")

# The overlay as a scenario reproduces fit.csv's simulated values, hence its errors.
for i, rate in enumerate(RATES):
    res = os.path.join(work, f"check{i}.h5")
    rr = run("run", "-q", "-o", res, overlay, "--set", f"workload.streams.camera.arrival.rate={rate}")
    check(rr.returncode == 0, rr.stderr)
    lat, p = metrics(res)
    got = {"latency_ms": lat, "power_W": p}
    for line in rows:
        if line["row"] == str(i + 1):
            sim = float(line["simulated"])
            check(sim == got[line["target"]], f"row {i + 1} {line['target']}: overlay gives {got[line['target']]}, fit.csv {sim}")
            meas = float(line["measured"])
            check(math.isclose(float(line["error"]), sim / meas - 1, rel_tol=1e-12, abs_tol=1e-15),
                  f"row {i + 1}: error {line['error']} is not simulated/measured - 1")

# --resume: the same fit again finds every run in DIR/evaluations: nothing simulated.
runs_before = sum(len(fs) for _, _, fs in os.walk(os.path.join(out, "evaluations")))
r = run("calibrate", calib, "-o", out, "--resume", "-j", "2")
check(r.returncode == 0, f"resume: exit {r.returncode}\n{r.stderr}")
check("(0 simulated now)" in r.stderr, f"resume simulated runs: {r.stderr[-400:]}")
with h5py.File(os.path.join(out, "fit.h5"), "r") as h:
    check(int(h.attrs["runs_simulated"]) == 0, "resume: runs_simulated != 0")
    check(float(h["parameters"]["value"][0]) == fitted, "resume: another fitted value")
runs_after = sum(len(fs) for _, _, fs in os.walk(os.path.join(out, "evaluations")))
check(runs_after == runs_before, f"resume: {runs_after - runs_before} new files in evaluations/")
check(first_runs > 0, "the first fit simulated nothing")

# Without --resume, an existing fit is not overwritten.
r = run("calibrate", calib, "-o", out)
check(r.returncode == 2 and "--resume" in r.stderr, f"rerun without --resume: exit {r.returncode} {r.stderr}")


# A list item as the parameter: the NPU's top OPP voltage (the performance governor holds it),
# data made at 760 mV. The overlay writes it as { 4: { volt: ... } } under the OPP list, which
# extends merges into the inherited item: run as a scenario it reproduces fit.csv exactly.
VPATH = "platform.domains.npu.opps.4.volt"
r, vout = power_fit("v", [f"{VPATH}=760 mV"], f'{VPATH}: {{ bounds: ["730 mV", "900 mV"], start: "850 mV" }}')
check(r.returncode == 0, f"list-item calibrate: exit {r.returncode}\n{r.stderr}")
if r.returncode == 0:
    with h5py.File(os.path.join(vout, "fit.h5"), "r") as h:
        volt = float(h["parameters"]["value"][0])
        unit = h["parameters"]["unit"][0].decode().rstrip("\0")
    print(f"fitted NPU top voltage {volt!r} {unit}")
    check(unit == "mV", f"fit.h5 gives the voltage in {unit!r}, the bounds' unit is mV")
    check(abs(volt - 760) < 3, f"fitted voltage {volt} {unit}, expected ~760 mV")
    vtext = open(os.path.join(vout, "calibrated.yaml")).read()
    check("\n        4:\n          volt:" in vtext, f"overlay does not patch OPP 4 as an item:\n{vtext}")
    vrows = list(csv.DictReader(open(os.path.join(vout, "fit.csv"))))
    for i, rate in enumerate(RATES):
        res = os.path.join(work, f"vcheck{i}.h5")
        rr = run("run", "-q", "-o", res, os.path.join(vout, "calibrated.yaml"), "--set",
                 f"workload.streams.camera.arrival.rate={rate}")
        check(rr.returncode == 0, rr.stderr)
        if rr.returncode == 0:
            sim = [float(x["simulated"]) for x in vrows if x["row"] == str(i + 1)]
            check(sim == [metrics(res)[1]], f"list-item overlay row {i + 1}: {metrics(res)[1]} vs fit.csv {sim}")


# One parameter for two keys that must share a value ({read,write}: a list of names, as {a..b}
# is a range): the LPDDR's read and write energy per byte, data made with both at 45 pJ/B
# (the scenario's own are 30 and 32). The fit finds 45 and the overlay writes it to both keys.
EPATH = "platform.components.lpddr.energy_per_byte_{read,write}"
r, eout = power_fit("e", ["platform.components.lpddr.energy_per_byte_read=45 pJ/B",
                          "platform.components.lpddr.energy_per_byte_write=45 pJ/B"],
                   f'{EPATH}: {{ bounds: ["10 pJ/B", "80 pJ/B"], start: "20 pJ/B" }}')
check(r.returncode == 0, f"tied calibrate: exit {r.returncode}\n{r.stderr}")
if r.returncode == 0:
    with h5py.File(os.path.join(eout, "fit.h5"), "r") as h:
        energy = float(h["parameters"]["value"][0])
    print(f"fitted LPDDR read and write energy {energy!r} pJ/B")
    check(abs(energy - 45) < 2, f"fitted energy {energy} pJ/B, expected ~45")
    etext = open(os.path.join(eout, "calibrated.yaml")).read()
    lines = [l.strip() for l in etext.splitlines() if l.strip().startswith("energy_per_byte_")]
    values = {l.split(":")[0]: l.split(":")[1].split("#")[0].strip() for l in lines}
    check(set(values) == {"energy_per_byte_read", "energy_per_byte_write"}, f"overlay keys: {values}")
    check(len(set(values.values())) == 1, f"read and write not given one value: {values}")


# A parameter no target depends on (the NPU's c_eff, against latency under the performance
# governor): every evaluation gives the same error, and the run warns that the fit saw no slope.
flat = os.path.join(work, "flat.yaml")
with open(flat, "w") as f:
    f.write(CALIB.replace("  power_W: { metric: avg_power_W, weight: 1 }\n", "")
                 .replace(f"  {PATH}: {{ bounds: [0.3, 1.0], start: 0.8 }}",
                          '  platform.components.npu.c_eff: { bounds: ["1000 pF", "4000 pF"], start: "2500 pF" }')
                 .replace("global_evals: 6, local_evals: 14", "global_evals: 4, local_evals: 6"))
r = run("calibrate", flat, "-o", os.path.join(work, "flatfit"), "-j", "2")
check(r.returncode == 0, f"flat calibrate: exit {r.returncode}\n{r.stderr}")
check("warning: the error took 1 distinct value(s) over" in r.stderr, f"no flat-objective warning:\n{r.stderr[-800:]}")


# Keys valid only together (a unit's idle_residency goes with its idle_exit_latency): each
# bound is checked with the other parameters at their start, as every run sets them all.
together = os.path.join(work, "together.yaml")
with open(together, "w") as f:
    f.write(CALIB.replace(f"  {PATH}: {{ bounds: [0.3, 1.0], start: 0.8 }}",
                          '  platform.components.npu.idle_exit_latency: { bounds: ["10 us", "100 us"] }\n'
                          '  platform.components.npu.idle_residency: { bounds: ["50 us", "500 us"] }')
                 .replace("global_evals: 6, local_evals: 14", "global_evals: 2, local_evals: 2"))
r = run("calibrate", together, "-o", os.path.join(work, "togetherfit"), "-j", "2")
check(r.returncode == 0, f"parameters valid only together: exit {r.returncode}\n{r.stderr[-600:]}")


# Bad input: exit 2 with file:line:column, no output folder made.
def bad(name, replace, expect_at, expect_text, table_text=None):
    c = os.path.join(work, f"bad-{name}.yaml")
    t = CALIB
    for a, b in replace:
        assert a in t, a
        t = t.replace(a, b)
    if table_text is not None:
        tp = os.path.join(work, f"bad-{name}.csv")
        with open(tp, "w") as f:
            f.write(table_text)
        t = t.replace("measurements: table.csv", f"measurements: bad-{name}.csv")
    with open(c, "w") as f:
        f.write(t)
    o = os.path.join(work, f"out-{name}")
    rr = run("calibrate", c, "-o", o)
    check(rr.returncode == 2, f"{name}: exit {rr.returncode}, expected 2\n{rr.stderr}")
    where = expect_at.replace("CALIB", c).replace("TABLE", os.path.join(work, f"bad-{name}.csv"))
    check(where in rr.stderr and expect_text in rr.stderr, f"{name}: expected '{where}' and '{expect_text}' in:\n{rr.stderr}")
    check(not os.path.exists(o), f"{name}: output folder made")


bad("unknown_path", [(PATH, "platform.components.npu.efficency")], "CALIB:8:3", "efficency")
bad("wrong_unit", [("[0.3, 1.0]", '["0.3 GHz", "1.0 GHz"]'), ("start: 0.8", 'start: "0.8 GHz"')], "CALIB:8:",
    PATH)
bad("unknown_metric", [("metric: avg_power_W", "metric: power:npu+gpu9")], "CALIB:6:",
    "no component 'gpu9'")
bad("bad_condition", [("holdout: { rows: [3] }", "holdout: { rows: [1] }")], "TABLE:2:1", "workload.streams.camera.arrival.rate",
    "workload.streams.camera.arrival.rate,latency_ms,power_W\nfast,0.001,1\nslow,0.002,2\n")
# A cell reads as --set reads its value (YAML): a flow list is a list, refused where a rate goes.
bad("list_cell", [("holdout: { rows: [3] }", "holdout: { rows: [1] }")], "TABLE:2:1", "found a list",
    'workload.streams.camera.arrival.rate,latency_ms,power_W\n"[10 Hz, 20 Hz]",0.001,1\n20 Hz,0.002,2\n')
bad("no_such_column", [("holdout: { rows: [3] }", "holdout: { rows: [1] }")], "TABLE:1:1", "workload.streams.camera.arival.rate",
    "workload.streams.camera.arival.rate,latency_ms,power_W\n10 Hz,0.001,1\n20 Hz,0.002,2\n")
bad("too_few_rows", [("holdout: { rows: [3] }", "holdout: { rows: [1] }")], "CALIB:8:3", "only 0 measured values",
    "workload.streams.camera.arrival.rate,latency_ms,power_W\n10 Hz,0.001,\n20 Hz,,\n")
# A key fitted twice, or fitted and fixed at once: two values for it would leave the run's
# choice to the order of overrides.
bad("listed_twice", [(PATH, "platform.components.{npu,npu}.efficiency")], "CALIB:8:3",
    "'platform.components.npu.efficiency' is listed twice")
bad("fitted_and_set", [('set: { duration: "1 s" }', f'set: {{ duration: "1 s", {PATH}: 0.5 }}')], "CALIB:8:3",
    "is also fixed in set")
bad("fitted_and_column", [("holdout: { rows: [3] }", "holdout: { rows: [1] }")], "CALIB:8:3",
    "is also a condition column",
    f"workload.streams.camera.arrival.rate,{PATH},latency_ms,power_W\n10 Hz,0.5,0.001,1\n20 Hz,0.6,0.002,2\n")
bad("empty_list_name", [(PATH, "platform.components.{npu,}.efficiency")], "CALIB:8:3",
    "a list {X,Y,...} of names, found '{npu,}'")
bad("holdout_fraction", [("holdout: { rows: [3] }", "holdout: { fraction: 1.5, seed: 2 }")], "CALIB:9:22",
    "expected a share between 0 and 1")

shutil.rmtree(work)
for p in problems:
    print("FAIL:", p)
print(f"{0 if problems else 1} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
