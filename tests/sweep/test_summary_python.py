"""A sweep's summary as Python users read it: pandas.read_csv(summary.csv) and
xarray.open_dataset(summary.h5) hold the same table, numbers equal exactly, with units.
Usage: test_summary_python.py PTSIM WORK_DIR DEFAULT_SCENARIO"""
import math
import pathlib
import shutil
import subprocess
import sys

import h5py
import pandas as pd
import xarray as xr

ptsim, work, base = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
(work / "s.yaml").write_text(
    f"base: {base}\n"
    "set: { duration: \"2 s\" }\n"
    "grid:\n"
    "  policy.governor: [performance, powersave]\n"
    "  thermal.ambient: [\"25 degC\", \"35 W\"]\n")
done = subprocess.run([ptsim, "sweep", "s.yaml", "-o", "out", "-j2"], cwd=work, capture_output=True, text=True)
assert done.returncode == 1, done.stderr  # two runs have a bad ambient

# round_trip: pandas' default float parser may be one ulp off; the text itself is exact.
csv = pd.read_csv(work / "out" / "summary.csv", float_precision="round_trip")
ds = xr.open_dataset(work / "out" / "summary.h5", engine="h5netcdf")
assert list(csv.columns[:5]) == ["run_id", "status", "error", "policy.governor", "thermal.ambient"], list(csv.columns)
assert list(csv.columns[-3:]) == ["wall_s", "wall_host", "wall_rank"]
assert list(ds.data_vars) == list(csv.columns), (list(ds.data_vars), list(csv.columns))
assert ds.sizes["run"] == len(csv) == 4
assert list(ds["run"].values) == [0, 1, 2, 3]
assert list(csv["status"]) == ["ok", "failed", "ok", "failed"]
assert list(ds["status"].values) == list(csv["status"])
assert list(ds["run_id"].values) == list(csv["run_id"])
assert "found '35 W'" in csv["error"][1]
assert ds["energy_J"].attrs["units"] == "J"
assert ds["wall_s"].attrs["units"] == "s"
for name in csv.columns[5:-3]:  # the metrics
    for i in range(4):
        a, b = float(csv[name][i]), float(ds[name].values[i])
        assert (math.isnan(a) and math.isnan(b)) or a == b, (name, i, a, b)
    assert math.isnan(float(csv[name][1])), name  # a failed run has no metrics
# Each ok row's metrics are its run file's own.
for i in (0, 2):
    with h5py.File(work / "out" / "runs" / (csv["run_id"][i] + ".h5"), "r") as f:
        for name in f["summary"]:
            assert float(f["summary"][name][()]) == float(csv[name][i]), name
shutil.rmtree(work)
print("ok")
