#!/usr/bin/python3
"""ptsim-plot timeline on a server run (issue 17): series grouped per GPU module and per
kind, cut to the largest groups with the rest as 'other', one colour per group across the
panels, a time window, and the per-pixel mean with its min-max band when a series has more
samples than the axes have pixels. Every grouped series is checked against sums and maxima
of the file's own columns, computed here from the names and the stored scenario.

Usage: test_timeline_groups.py PTSIM POSTPROC_DIR
"""
import contextlib
import io
import os

import h5py
import numpy as np
import yaml

from results_fixture import Runs

R = Runs("timeline-groups")
try:
    import ptsim_plot
    import ptsim_timeline

    scenarios = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
    server = os.path.join(R.dir, "server.h5")
    R.ptsim_cmd("run", "-q", os.path.abspath(os.path.join(scenarios, "server-llm-serving.yaml")),
                "--set", "duration=0.5 s", "--set", "record_period=50 ms", "-o", server)
    with h5py.File(server, "r") as f:
        ts = f["timeseries"]
        t = ts["time"][()]
        comps = list(ts["component"].asstr()[()])
        blocks = list(ts["block"].asstr()[()])
        power = {c: ts["power"][:, j] for j, c in enumerate(comps)}
        temp = {b: ts["temperature"][:, j] for j, b in enumerate(blocks)}
        total = ts["power"][()].sum(axis=1)
        text = f.attrs["scenario"]
        text = text.decode() if isinstance(text, bytes) else text
    kind = {name: c["kind"] for name, c in yaml.safe_load(text)["platform"]["components"].items()}
    assert len(comps) > 30, comps  # a server: too many series for one legend

    # 1. auto on a server: per module. GPU i's module is exactly gpu{i}, hbm{i}, nvlink{i},
    #    pcie_gpu{i}, summed; the CPU sockets' parts form their own modules (cpu0 module),
    #    not GPU 0's.
    drawn = ptsim_plot.timeline(server, os.path.join(R.dir, "auto.png"))
    assert drawn["grouping"] == "module" and drawn["top"] == ptsim_timeline.AUTO_TOP, drawn["grouping"]
    for i in range(8):
        key = f"gpu{i} module"
        parts = [f"gpu{i}", f"hbm{i}", f"nvlink{i}", f"pcie_gpu{i}"]
        assert sorted(drawn["members"]["power_W"][key]) == sorted(parts), drawn["members"]["power_W"][key]
        np.testing.assert_allclose(drawn["power_W"][key], sum(power[p] for p in parts), rtol=1e-12)
    assert len(drawn["power_W"]) <= ptsim_timeline.AUTO_TOP + 1  # the legend fits
    # The groups partition the components: their sum is the platform total.
    np.testing.assert_allclose(sum(drawn["power_W"].values()), total, rtol=1e-12)
    members = [m for ms in drawn["members"]["power_W"].values() for m in ms]
    assert sorted(members) == sorted(comps)
    # Every module, none cut: each socket's module holds its socket and no GPU part; the
    # platform's base power (a row of no module) is a group of its own.
    drawn = ptsim_plot.timeline(server, os.path.join(R.dir, "modules.png"), group="module", top=len(comps))
    for socket in ("cpu0", "cpu1"):
        group = drawn["members"]["power_W"][f"{socket} module"]
        assert socket in group and not any(m.startswith("gpu") for m in group), group
    assert "base" in comps
    base_key = next(k for k, ms in drawn["members"]["power_W"].items() if "base" in ms)
    assert drawn["members"]["power_W"][base_key] == ["base"], drawn["members"]["power_W"][base_key]
    np.testing.assert_allclose(drawn["power_W"][base_key], power["base"], rtol=1e-12)

    # 2. per kind, top 3: the three kinds of highest mean power, the rest as 'other'.
    drawn = ptsim_plot.timeline(server, os.path.join(R.dir, "kind.png"), group="kind", top=3)
    by_kind = {}
    for c in comps:
        k = kind.get(c, c)
        by_kind[k] = by_kind.get(k, 0) + power[c]
    top3 = sorted(by_kind, key=lambda k: -by_kind[k].mean())[:3]
    assert set(drawn["power_W"]) == set(top3) | {"other"}, (sorted(drawn["power_W"]), top3)
    for k in top3:
        np.testing.assert_allclose(drawn["power_W"][k], by_kind[k], rtol=1e-12)
    np.testing.assert_allclose(drawn["power_W"]["other"], total - sum(by_kind[k] for k in top3), rtol=1e-9)
    # Temperature takes the hottest block of a group: the GPUs' blocks are gpu0..gpu7.
    gpu_blocks = [b for b in blocks if b.startswith("gpu")]
    assert len(gpu_blocks) == 8, blocks
    if "gpu" in drawn["temperature_C"]:
        np.testing.assert_array_equal(drawn["temperature_C"]["gpu"], np.max([temp[b] for b in gpu_blocks], axis=0))

    # 3. One colour per group in every panel; different groups, different colours.
    for q in ("frequency_MHz", "power_W", "temperature_C", "utilization_pct"):
        keys = list(drawn[q])
        colours = [drawn["colors"][k] for k in keys]
        assert len(set(map(str, colours))) == len(keys), (q, keys, colours)
    # Per module, GPU 3's frequency, power, temperature and utilisation are one group key
    # (so one colour): its domain, its four components and its block.
    drawn_m = ptsim_plot.timeline(server, os.path.join(R.dir, "module.png"), group="module", top=20)
    for q in ("frequency_MHz", "power_W", "temperature_C", "utilization_pct"):
        assert "gpu3 module" in drawn_m[q], (q, list(drawn_m[q]))

    # 4. A window: only the samples whose periods end within it.
    drawn = ptsim_plot.timeline(server, os.path.join(R.dir, "window.png"), group="none", t_from=0.2, t_to=0.4)
    np.testing.assert_array_equal(drawn["time"], t[(t >= 0.2) & (t <= 0.4)])
    np.testing.assert_array_equal(drawn["power_W"]["gpu5"], power["gpu5"][(t >= 0.2) & (t <= 0.4)])

    # 5. More samples than pixels: per bin of samples, the mean line and the min-max band.
    assert not ptsim_plot.timeline(server, os.path.join(R.dir, "lines.png"))["envelope"]
    drawn = ptsim_plot.timeline(server, os.path.join(R.dir, "band.png"), group="none", max_points=4)
    assert drawn["envelope"]
    n = len(t)
    tb, mean, lo, hi = ptsim_timeline.envelope(t, power["gpu0"], 4)
    edges = [i * n // 4 for i in range(5)]  # 4 runs of samples, bin i from floor(i n / 4)
    for b in range(4):
        chunk = power["gpu0"][edges[b]:edges[b + 1]]
        assert tb[b] == t[edges[b + 1] - 1]
        assert lo[b] == chunk.min() and hi[b] == chunk.max()
        np.testing.assert_allclose(mean[b], chunk.mean(), rtol=1e-12)

    # 6. The command line: the options, and bad values refused with exit 2.
    def main_rc(args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = ptsim_plot.main(args)
        return rc, err.getvalue()

    out = os.path.join(R.dir, "cli.png")
    assert main_rc(["timeline", server, "-o", out, "--group", "kind", "--top", "3", "--from", "150 ms",
                    "--to", "0.4 s"]) == (0, "")
    assert os.path.getsize(out) > 10000
    for args, needle in [(["--from", "later"], "--from: expected a time"),
                         (["--from", "0.4 s", "--to", "0.2 s"], "--from must be before --to"),
                         (["--from", "5 s"], "no samples between 5 s"),
                         (["--top", "0"], "--top: expected a count >= 1")]:
        rc, err = main_rc(["timeline", server, "-o", os.path.join(R.dir, "bad.png"), *args])
        assert rc == 2 and needle in err, (args, rc, err)
    assert not os.path.exists(os.path.join(R.dir, "bad.png"))
    print("ok: timeline groups, top-N, colours, window and band on a server run")
finally:
    R.cleanup()
