#!/usr/bin/python3
"""`ptsim compare` end to end, on a folder of cases made here from real runs of a short
scenario: a case whose measurement is the model's own value passes (error 0); one measured at
twice the model's value is 50 % off: it fails the command when expected to pass, and is only
reported when marked `expect: fail`. A ratio target (ratio_to_row) divides by the baseline
row's value. Formats (table, csv, json, markdown) read back; bad cases
exit 2 with file:line:column before anything runs.

Usage: test_compare.py PTSIM SCENARIOS_DIR
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import h5py

ptsim, scenarios = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="ptsim-test-compare-")
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


def run(*args):
    return subprocess.run([ptsim, *args], capture_output=True, text=True, cwd=work)


def compare_edited(path, old, new, folder):
    """`ptsim compare --dir folder` with one edit in path, which is restored after."""
    with open(path) as f_:
        text_ = f_.read()
    with open(path, "w") as f_:
        f_.write(text_.replace(old, new))
    try:
        return run("compare", "--dir", folder)
    finally:
        with open(path, "w") as f_:
            f_.write(text_)


def write_case(folder, csv_text, scenario, targets, extra=""):
    """A case folder: measurements.csv and a case.yaml of the given targets (YAML lines)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "measurements.csv"), "w") as f_:
        f_.write(csv_text)
    with open(os.path.join(folder, "case.yaml"), "w") as f_:
        f_.write(f'source: "test"\ncitation: "test"\nscenario: {scenario}\nmeasurements: measurements.csv\n'
                 f"targets:\n{targets}{extra}")


# The scenario: the default (phone camera) stream for 1 s under the performance governor.
base = os.path.join(work, "base.yaml")
with open(base, "w") as f:
    f.write(f"extends: {os.path.join(scenarios, 'default.yaml')}\nduration: \"1 s\"\npolicy: {{ governor: performance }}\n")

# The model's own values at two arrival rates (what compare must read back).
own = {}
for rate in ("20 Hz", "40 Hz"):
    out = os.path.join(work, f"own-{rate[:2]}.h5")
    r = run("run", "-q", "-o", out, base, "--set", f"workload.streams.camera.arrival.rate={rate}")
    assert r.returncode == 0, r.stderr
    with h5py.File(out, "r") as h:
        own[rate] = (float(h["summary"]["avg_power_W"][()]), float(h["summary"]["latency_p50_s"][()]))


def make_case(name, factor, expect, tolerance="15 %"):
    d = os.path.join(work, "cases", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "measurements.csv"), "w") as f:
        f.write("# made by test_compare.py from ptsim's own runs\n")
        f.write("label,workload.streams.camera.arrival.rate,power_W,latency_ms\n")
        for rate, (p, lat) in own.items():
            f.write(f"r{rate[:2]},{rate},{p * factor!r},{lat * factor * 1e3!r}\n")
    with open(os.path.join(d, "case.yaml"), "w") as f:
        f.write(f"""source: "test: ptsim's own values x {factor}"
citation: "tests/calibration/test_compare.py"
scenario: ../../base.yaml
measurements: measurements.csv
targets:
  power_W: {{ metric: avg_power_W, tolerance: "{tolerance}" }}
  latency_ms: {{ metric: latency_p50_s, scale: 0.001, tolerance: "{tolerance}" }}
expect: {expect}
quick: {{ rows: [2] }}
""")


make_case("exact", 1.0, "pass")
make_case("double", 2.0, "fail")
cases = os.path.join(work, "cases")

# The exact case: every error 0 (same run, same numbers) and within tolerance.
r = run("compare", "--dir", cases, "exact", "--format", "json")
check(r.returncode == 0, f"exact: exit {r.returncode}, {r.stderr}")
doc = json.loads(r.stdout)
pts = doc["cases"][0]["points"]
check(len(pts) == 4, f"exact: 4 points expected (2 rows x 2 targets), found {len(pts)}")
for p in pts:
    check(abs(p["error"]) < 1e-12, f"exact: error {p['error']} at {p}")
    check(p["within"] is True, f"exact: not within at {p}")
check(doc["cases"][0]["status"] == "pass", doc["cases"][0]["status"])

# Measured at twice the model: relative error model/measured - 1 = -0.5 on every point.
r = run("compare", "--dir", cases, "double", "--format", "csv")
check(r.returncode == 0, f"double (expect: fail): exit {r.returncode} (an expected failure must not fail the command)")
rows = list(csv.DictReader(io.StringIO(r.stdout)))
check(len(rows) == 4, f"double: 4 csv rows expected, found {len(rows)}")
for row in rows:
    check(abs(float(row["error"]) + 0.5) < 1e-9, f"double: error {row['error']} instead of -0.5")
    check(row["within"] == "no" and row["case_status"] == "fail (expected)", row)

# The same case expected to pass: the command fails (exit 1), and says which case.
with open(os.path.join(cases, "double", "case.yaml")) as f:
    text = f.read()
with open(os.path.join(cases, "double", "case.yaml"), "w") as f:
    f.write(text.replace("expect: fail", "expect: pass"))
r = run("compare", "--dir", cases)
check(r.returncode == 1, f"double (expect: pass): exit {r.returncode}, expected 1")
check("double: FAIL" in r.stdout and "exact: pass" in r.stdout, r.stdout)

# A case's `set: { KEY: null }` removes the key, as --set KEY=null does: on a base that adds a
# measurement window (other numbers), removing it gives the exact case's numbers again.
with open(os.path.join(work, "windowed.yaml"), "w") as f:
    f.write('extends: base.yaml\nmeasure: { from: "500 ms" }\n')
for name, extra in (("unset", "set: { measure: null }\n"), ("windowed", "")):
    d = os.path.join(cases, name)
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(cases, "exact", "measurements.csv"), d)
    with open(os.path.join(cases, "exact", "case.yaml")) as f:
        text = f.read().replace("scenario: ../../base.yaml", "scenario: ../../windowed.yaml")
    with open(os.path.join(d, "case.yaml"), "w") as f:
        f.write(text + extra)
r = run("compare", "--dir", cases, "unset", "windowed", "--format", "json")
check(r.returncode == 0, f"unset/windowed: exit {r.returncode}, {r.stderr}")  # both within 15 %
errs = {c["name"]: [p["error"] for p in c["points"]] for c in json.loads(r.stdout)["cases"]}
check(all(e == 0 for e in errs.get("unset", [1])), f"unset: errors {errs.get('unset')}, expected 0")
check(any(e != 0 for e in errs.get("windowed", [])), f"windowed: errors {errs.get('windowed')}, expected some")
shutil.rmtree(os.path.join(cases, "unset"))
shutil.rmtree(os.path.join(cases, "windowed"))

# --quick runs only the quick rows (row 2); markdown has one table line per point.
r = run("compare", "--dir", cases, "exact", "--quick", "--format", "markdown")
lines = [l for l in r.stdout.splitlines() if l.startswith("| exact |")]
check(r.returncode == 0 and len(lines) == 2, f"quick markdown: exit {r.returncode}, lines {lines}")
check(all("rate=40 Hz" in l for l in lines), lines)

# power:A+B+... over every component is the run's average power: the power timeseries are
# means over their record periods, so together they integrate to energy_J (avg_power_W).
with h5py.File(os.path.join(work, "own-20.h5"), "r") as h:
    comps = [c.decode() if isinstance(c, bytes) else str(c) for c in h["timeseries"]["component"][:]]
    first = comps[0]
write_case(os.path.join(work, "sums", "all"), "workload.streams.camera.arrival.rate,all_W,first_W\n20 Hz,1,1\n",
           "../../base.yaml",
           f'  all_W: {{ metric: "power:{"+".join(comps)}", error: absolute, tolerance: 1e9 }}\n'
           f'  first_W: {{ metric: "power:{first}", error: absolute, tolerance: 1e9 }}\n')
r = run("compare", "--dir", os.path.join(work, "sums"), "--format", "json")
check(r.returncode == 0, f"sums: exit {r.returncode} {r.stderr}")
pts = {p["target"]: p["model"] for p in json.loads(r.stdout)["cases"][0]["points"]}
check(abs(pts["all_W"] - own["20 Hz"][0]) <= 1e-9 * own["20 Hz"][0],
      f"power over every component {pts['all_W']} != avg_power_W {own['20 Hz'][0]}")
with h5py.File(os.path.join(work, "own-20.h5"), "r") as h:
    t = h["timeseries"]["time"][:]
    p0 = h["timeseries"]["power"][:, 0]
    dt = [t[0]] + [t[i] - t[i - 1] for i in range(1, len(t))]
    want = sum(a * b for a, b in zip(p0, dt)) / t[-1]
check(abs(pts["first_W"] - want) <= 1e-9 * abs(want), f"power:{first} {pts['first_W']} != {want}")

# freq:DOMAIN is the domain's clock averaged over the run, in MHz, weighted by record periods as
# power is; a domain the platform lacks is an error at the target before anything runs. The
# default scenario's own governors move the clocks (the performance governor above holds them).
with open(os.path.join(work, "moving.yaml"), "w") as f_:
    f_.write(f"extends: {os.path.join(scenarios, 'default.yaml')}\nduration: \"1 s\"\n")
r = run("run", "-q", "-o", os.path.join(work, "moving.h5"), os.path.join(work, "moving.yaml"))
assert r.returncode == 0, r.stderr
with h5py.File(os.path.join(work, "moving.h5"), "r") as h:
    doms = [d.decode() if isinstance(d, bytes) else str(d) for d in h["timeseries"]["domain"][:]]
    t = h["timeseries"]["time"][:]
    f = h["timeseries"]["frequency"][:]
    dt = [t[0]] + [t[i] - t[i - 1] for i in range(1, len(t))]
    want_mhz = {d: sum(f[i, k] * dt[i] for i in range(len(t))) / t[-1] / 1e6 for k, d in enumerate(doms)}
# A domain whose clock moved during the run (the average differs from its first sample), so that
# a metric reading one sample would fail.
moving = [d for k, d in enumerate(doms) if abs(want_mhz[d] - f[0, k] / 1e6) > 1e-6 * want_mhz[d]]
check(moving, f"freq: no domain's clock moved in the run ({want_mhz}); the test cannot tell an average from a sample")
dom = moving[0] if moving else doms[0]
d = os.path.join(work, "freqs", "clock")
write_case(d, f"label,clock_MHz\nown,{want_mhz[dom]!r}\n", "../../moving.yaml",
           f'  clock_MHz: {{ metric: "freq:{dom}", tolerance: "1 %" }}\n')
r = run("compare", "--dir", os.path.join(work, "freqs"), "--format", "json")
check(r.returncode == 0, f"freq: exit {r.returncode} {r.stderr}")
if r.returncode == 0:
    pt = json.loads(r.stdout)["cases"][0]["points"][0]
    check(abs(pt["model"] - want_mhz[dom]) <= 1e-9 * want_mhz[dom], f"freq:{dom} {pt['model']} MHz != {want_mhz[dom]}")
    check(pt["units"] == "MHz", f"freq units {pt['units']}")
r = compare_edited(os.path.join(d, "case.yaml"), f"freq:{dom}", "freq:nosuchdomain", os.path.join(work, "freqs"))
cpath = os.path.join(d, "case.yaml")
check(r.returncode == 2 and f"{cpath}:6:3: targets.clock_MHz: metric 'freq:nosuchdomain': no DVFS domain 'nosuchdomain'" in r.stderr,
      f"freq bad domain: exit {r.returncode} {r.stderr}")

# job_energy:A+B+... is the finished requests' mean energy in those components (group
# job_energy); over every component it is the mean of the jobs' own energy_J. One component's
# share must differ from the whole, or the test could not tell a sum from a single column. A
# component the platform lacks is an error at the target before anything runs.
with h5py.File(os.path.join(work, "own-20.h5"), "r") as h:
    je = h["job_energy"]
    je_comps = [c.decode() if isinstance(c, bytes) else str(c) for c in je["component"][:]]
    joules = je["energy_J"][:]
    jobs_energy = [float(e) for e, st in zip(h["jobs"]["energy_J"][:], h["jobs"]["state"][:])
                   if (st.decode() if isinstance(st, bytes) else str(st)) == "finished"]
check(len(joules) > 0 and len(jobs_energy) == len(joules), f"job_energy: {len(joules)} rows, {len(jobs_energy)} finished jobs")
k_big = max(range(len(je_comps)), key=lambda k: sum(row[k] for row in joules))
want_one = sum(row[k_big] for row in joules) / len(joules)
want_all = sum(jobs_energy) / len(jobs_energy)
check(abs(want_one - want_all) > 1e-6 * want_all, f"job_energy: one component is every joule ({want_one}); the test cannot fail")
d = os.path.join(work, "jobenergy", "je")
write_case(d, "workload.streams.camera.arrival.rate,one_J,all_J\n20 Hz,1,1\n", "../../base.yaml",
           f'  one_J: {{ metric: "job_energy:{je_comps[k_big]}", error: absolute, tolerance: 1e9 }}\n'
           f'  all_J: {{ metric: "job_energy:{"+".join(je_comps)}", error: absolute, tolerance: 1e9 }}\n')
r = run("compare", "--dir", os.path.join(work, "jobenergy"), "--format", "json")
check(r.returncode == 0, f"job_energy: exit {r.returncode} {r.stderr}")
if r.returncode == 0:
    pts = {p["target"]: p for p in json.loads(r.stdout)["cases"][0]["points"]}
    check(abs(pts["one_J"]["model"] - want_one) <= 1e-9 * want_one, f"job_energy one {pts['one_J']['model']} != {want_one}")
    check(abs(pts["all_J"]["model"] - want_all) <= 1e-9 * want_all, f"job_energy all {pts['all_J']['model']} != {want_all}")
    check(pts["one_J"]["units"] == "J", f"job_energy units {pts['one_J']['units']}")
r = compare_edited(os.path.join(d, "case.yaml"), f"job_energy:{je_comps[k_big]}\"", "job_energy:nosuchpart\"",
                   os.path.join(work, "jobenergy"))
check(r.returncode == 2 and "metric 'job_energy:nosuchpart': no component 'nosuchpart' in the platform" in r.stderr,
      f"job_energy bad component: exit {r.returncode} {r.stderr}")

# A published ratio (ratio_to_row): the model's value divided by its value in the baseline row.
# The measured column holds the model's own ratio of the 40 Hz to the 20 Hz run, so its error is 0
# (to rounding); the baseline row carries no point. --quick with only row 2 still runs row 1, the
# baseline, to divide by it. A baseline cell other than 1 and a row number outside the table are
# errors at their place.
ratio_p = own["40 Hz"][0] / own["20 Hz"][0]
ratio_l = own["40 Hz"][1] / own["20 Hz"][1]
check(abs(ratio_p - 1) > 1e-3, f"ratio case: the two rates give the same power ({ratio_p}), the test cannot fail")
d = os.path.join(work, "ratios", "ratio")
write_case(d, f"workload.streams.camera.arrival.rate,power_ratio,latency_ratio\n20 Hz,1,\n40 Hz,{ratio_p!r},{ratio_l * 1.25!r}\n",
           "../../base.yaml",
           '  power_ratio: { metric: avg_power_W, ratio_to_row: 1, tolerance: "1 %" }\n'
           '  latency_ratio: { metric: latency_p50_s, ratio_to_row: 1, tolerance: "30 %" }\n',
           "quick: { rows: [2] }\n")
for extra in ([], ["--quick"]):
    r = run("compare", "--dir", os.path.join(work, "ratios"), "--format", "json", *extra)
    check(r.returncode == 0, f"ratio {extra}: exit {r.returncode} {r.stderr}")
    pts = json.loads(r.stdout)["cases"][0]["points"] if r.returncode == 0 else []
    check(len(pts) == 2, f"ratio {extra}: 2 points expected (row 2's two ratios), found {pts}")
    for pt in pts:
        want = ratio_p if pt["target"] == "power_ratio" else ratio_l
        check(abs(pt["model"] - want) <= 1e-9 * want, f"ratio {extra}: model {pt['model']} != {want} ({pt['target']})")
        if pt["target"] == "latency_ratio":  # measured 1.25x the model's ratio: error 1/1.25 - 1
            check(abs(pt["error"] + 0.2) < 1e-9, f"ratio {extra}: latency error {pt['error']}, expected -0.2")
cpath, mpath = os.path.join(d, "case.yaml"), os.path.join(d, "measurements.csv")
r = compare_edited(cpath, "ratio_to_row: 1, tolerance: \"1 %\"", "ratio_to_row: 3, tolerance: \"1 %\"", os.path.join(work, "ratios"))
check(r.returncode == 2 and f"{cpath}:6:53: targets.power_ratio.ratio_to_row: expected a data row number 1..2" in r.stderr,
      f"ratio_to_row 3: exit {r.returncode} {r.stderr}")
r = compare_edited(mpath, "20 Hz,1,", "20 Hz,2,", os.path.join(work, "ratios"))
check(r.returncode == 2 and f"{mpath}:2:7: power_ratio: this row is the baseline" in r.stderr,
      f"baseline cell 2: exit {r.returncode} {r.stderr}")

# A published rate against a simulated time (reciprocal): the model's value is 1 / the metric, so
# the error is on the rate. Two rows: the performance and the powersave governor (their frame
# latencies differ). Row 1's measured rate is 0.8x the model's 1 / latency (error 1/0.8 - 1); row
# 2's is exact. With ratio_to_row as well, the rates' ratio: latency 1 / latency 2.
out = os.path.join(work, "own-powersave.h5")
r = run("run", "-q", "-o", out, base, "--set", "workload.streams.camera.arrival.rate=20 Hz", "--set", "policy.governor=powersave")
check(r.returncode == 0, f"powersave run: exit {r.returncode} {r.stderr}")
with h5py.File(out, "r") as h:
    lat_slow = float(h["summary"]["latency_p50_s"][()])
lat_fast = own["20 Hz"][1]
check(abs(lat_slow / lat_fast - 1) > 1e-2, f"reciprocal case: both governors give latency {lat_fast}, the test cannot fail")
d = os.path.join(work, "recip", "recip")
write_case(d, "workload.streams.camera.arrival.rate,policy.governor,per_s,per_s_ratio\n"
              f"20 Hz,performance,{0.8 / lat_fast!r},1\n20 Hz,powersave,{1 / lat_slow!r},{lat_fast / lat_slow!r}\n",
           "../../base.yaml",
           '  per_s: { metric: latency_p50_s, reciprocal: true, tolerance: "30 %" }\n'
           '  per_s_ratio: { metric: latency_p50_s, reciprocal: true, ratio_to_row: 1, tolerance: "1 %" }\n')
r = run("compare", "--dir", os.path.join(work, "recip"), "--format", "json")
check(r.returncode == 0, f"reciprocal: exit {r.returncode} {r.stderr}")
pts = json.loads(r.stdout)["cases"][0]["points"] if r.returncode == 0 else []
check(len(pts) == 3, f"reciprocal: 3 points expected (two rates, one ratio), found {pts}")
for pt in pts:
    check(pt["metric"] == "1/latency_p50_s", f"reciprocal: metric shown as {pt['metric']}")
    if pt["target"] == "per_s_ratio":
        want, want_err, units = lat_fast / lat_slow, 0.0, "ratio to row 1"
    else:
        want = 1 / lat_fast if pt["row"] == 1 else 1 / lat_slow
        want_err, units = (1 / 0.8 - 1 if pt["row"] == 1 else 0.0), "1/s"
    check(abs(pt["model"] - want) <= 1e-9 * want, f"reciprocal: model {pt['model']} != {want} ({pt['target']} row {pt['row']})")
    check(abs(pt["error"] - want_err) < 1e-9, f"reciprocal: error {pt['error']}, expected {want_err} ({pt['target']} row {pt['row']})")
    check(pt["units"] == units, f"reciprocal: units {pt['units']}, expected {units}")
cpath = os.path.join(d, "case.yaml")
r = compare_edited(cpath, "reciprocal: true, tolerance", "reciprocal: yes, tolerance", os.path.join(work, "recip"))
check(r.returncode == 2 and f"{cpath}:6:47: targets.per_s.reciprocal: expected true or false, found 'yes'" in r.stderr,
      f"reciprocal: yes: exit {r.returncode} {r.stderr}")

# Bad input: exit 2 at the place, nothing run.
bad = os.path.join(work, "bad")
shutil.copytree(os.path.join(cases, "exact"), os.path.join(bad, "unknown_metric"))
p = os.path.join(bad, "unknown_metric", "case.yaml")
with open(p) as f:
    text = f.read()
with open(p, "w") as f:
    f.write(text.replace("metric: avg_power_W", "metric: avg_powr_W"))
r = run("compare", "--dir", bad)
check(r.returncode == 2, f"unknown metric: exit {r.returncode}")
check(f"{p}:6:22: targets.power_W.metric: unknown metric 'avg_powr_W'" in r.stderr, r.stderr)

shutil.copytree(os.path.join(cases, "exact"), os.path.join(bad, "bad_condition"))
shutil.rmtree(os.path.join(bad, "unknown_metric"))
m = os.path.join(bad, "bad_condition", "measurements.csv")
with open(m) as f:
    text = f.read()
with open(m, "w") as f:
    f.write(text.replace("r40,40 Hz", "r40,40 parsecs"))
r = run("compare", "--dir", bad)
check(r.returncode == 2, f"bad condition: exit {r.returncode}")
check(f"{m}:4:5:" in r.stderr and "workload.streams.camera.arrival.rate" in r.stderr, r.stderr)

r = run("compare", "--dir", cases, "nosuch")
check(r.returncode == 2 and "no case 'nosuch'" in r.stderr, r.stderr)

shutil.rmtree(work)
for p in problems:
    print("FAIL:", p)
print(f"{0 if problems else 1} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
