#!/usr/bin/python3
"""ptsim-plot on real runs: timeline and heatmap of a run, pareto and compare of a sweep
folder. Each image is a real, non-blank PNG (or SVG/PDF by extension), and what each plot
drew equals the file's data.

Usage: test_plots.py PTSIM POSTPROC_DIR
"""
import contextlib
import io
import math
import os
import subprocess

import h5py
import numpy as np

from results_fixture import HOT, T_975, Runs, summary_of

R = Runs("plots")


def check_png(path, min_size=(400, 300)):
    """A PNG file that decodes, of a readable size, and not one flat colour."""
    import matplotlib.image as mpimg
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", path
    img = mpimg.imread(path)
    h, w = img.shape[:2]
    assert w >= min_size[0] and h >= min_size[1], (path, img.shape)
    rgb = img[..., :3].reshape(-1, 3)
    assert rgb.std(axis=0).max() > 0.05, (path, "nearly uniform image")
    # Plenty of distinct colours: lines, text, fills, not a blank canvas.
    assert len(np.unique((rgb * 255).astype(np.uint8), axis=0)) > 20, path
    return img


try:
    import ptsim_plot

    plot_cli = os.path.join(R.postproc, "ptsim-plot")
    hot = R.run("hot.h5", *HOT)
    sweep, paths = R.governor_sweep()

    # 1. timeline: frequency, power, temperature, utilisation equal to the file; throttled
    #    periods shaded where the file says a domain was throttled.
    out = os.path.join(R.dir, "timeline.png")
    drawn = ptsim_plot.timeline(hot, out)
    check_png(out, (900, 700))
    with h5py.File(hot, "r") as f:
        ts = f["timeseries"]
        t = ts["time"][()]
        np.testing.assert_array_equal(drawn["time"], t)
        for j, d in enumerate(ts["domain"].asstr()[()]):
            np.testing.assert_array_equal(drawn["frequency_MHz"][d], ts["frequency"][:, j] / 1e6)
            np.testing.assert_array_equal(drawn["utilization_pct"][d], 100 * ts["utilization"][:, j])
        for j, c in enumerate(ts["component"].asstr()[()]):
            np.testing.assert_array_equal(drawn["power_W"][c], ts["power"][:, j])
        np.testing.assert_allclose(drawn["total_power_W"], ts["power"][()].sum(axis=1), rtol=1e-15)
        for j, b in enumerate(ts["block"].asstr()[()]):
            np.testing.assert_array_equal(drawn["temperature_C"][b], ts["temperature"][:, j])
        throttled = ts["throttled"][()].max(axis=1) > 0
        period = float(ts.attrs["record_period_s"])
        spans = drawn["throttled_spans"]
        assert throttled.any() and spans, "the hot run should throttle"
        # Every throttled sample's period lies in a span; no unthrottled sample's does.
        for k in range(len(t)):
            mid = t[k] - period / 2
            inside = any(a <= mid <= b for a, b in spans)
            assert inside == bool(throttled[k]), (k, t[k], inside)

    # 2. heatmap: at the peak and at a given time; colours follow the file's temperatures.
    out = os.path.join(R.dir, "heatmap.png")
    drawn = ptsim_plot.heatmap(hot, out)
    check_png(out)
    with h5py.File(hot, "r") as f:
        temp = f["timeseries/temperature"][()]
        blocks = list(f["timeseries/block"].asstr()[()])
        k = int(np.unravel_index(np.argmax(temp), temp.shape)[0])
        assert drawn["time"] == f["timeseries/time"][k]
        assert drawn["temperature"] == {b: temp[k, j] for j, b in enumerate(blocks)}
        fp = f["floorplan"]
        for n, x, y, w, h in zip(fp["name"].asstr()[()], fp["x"][()], fp["y"][()], fp["width"][()], fp["height"][()]):
            assert drawn["rects"][n] == (x, y, w, h), n
        assert max(drawn["temperature"].values()) == temp.max()
    hottest = max(drawn["temperature"], key=drawn["temperature"].get)
    coolest = min(drawn["temperature"], key=drawn["temperature"].get)
    # inferno: brighter is hotter.
    assert sum(drawn["colors"][hottest][:3]) > sum(drawn["colors"][coolest][:3])
    at = ptsim_plot.heatmap(hot, os.path.join(R.dir, "heatmap-1s.png"), "1 s")
    assert abs(at["time"] - 1.0) <= 0.005 + 1e-12, at["time"]
    check_png(os.path.join(R.dir, "heatmap-1s.png"))

    # 3. pareto over the sweep folder: one point per configuration (schedutil: mean of three
    #    seeds with its CI), the front computed here by hand.
    out = os.path.join(R.dir, "pareto.png")
    drawn = ptsim_plot.pareto([sweep], out, x="latency_p99_s", y="perf_per_watt")
    check_png(out)
    means = {}
    for run_id, path in paths.items():
        s = summary_of(path)
        means.setdefault(run_id.split("-")[0], []).append((s["latency_p99_s"], s["perf_per_watt"]))
    labels = drawn["labels"]
    # Points are labelled by their swept parameters (the short name of policy.governor).
    assert sorted(labels) == sorted(f"governor={g}" for g in means), labels
    for i, label in enumerate(labels):
        gov = label.split("=")[-1].split("-")[0]
        pts = np.array(means[gov])
        assert math.isclose(drawn["x"][i], pts[:, 0].mean(), rel_tol=1e-12)
        assert math.isclose(drawn["y"][i], pts[:, 1].mean(), rel_tol=1e-12)
        if len(pts) > 1:
            half = T_975[len(pts) - 1] * pts[:, 1].std(ddof=1) / math.sqrt(len(pts))
            assert math.isclose(drawn["y_ci95"][i], half, rel_tol=1e-9, abs_tol=1e-15)
    # Front by hand: lower latency and higher perf/W are better.
    x, y = drawn["x"], drawn["y"]
    front = {i for i in range(len(x))
             if not any((x[j] <= x[i] and y[j] >= y[i]) and (x[j] < x[i] or y[j] > y[i]) for j in range(len(x)))}
    assert set(drawn["front"]) == front, (drawn["front"], front, x, y)

    # 4. compare: bars of the main metrics, one per configuration.
    out = os.path.join(R.dir, "compare.png")
    drawn = ptsim_plot.compare([sweep], out)
    check_png(out)
    assert set(drawn["metrics"]) >= {"perf_per_watt", "energy_J", "latency_p99_s", "peak_temperature_C"}
    for i, label in enumerate(drawn["labels"]):
        gov = label.split("=")[-1].split("-")[0]
        ids = [r for r in paths if r.startswith(gov + "-")]
        for m, values in drawn["metrics"].items():
            expect = np.mean([summary_of(paths[r])[m] for r in ids])
            assert math.isclose(values[i], expect, rel_tol=1e-12, abs_tol=1e-300), (label, m)
    # Several files named one by one give the same picture data as the folder.
    listed = ptsim_plot.compare(sorted(paths.values()), os.path.join(R.dir, "compare2.png"))
    assert listed["labels"] == drawn["labels"]

    # 4b. energy: stacked bars by group and by component; each bar's parts are the runs'
    #     means, and by component they stack to energy_J, by group to wall_energy_J.
    for by, prefix, total in (("group", "energy_group_J[", "wall_energy_J"), ("component", "energy_J[", "energy_J")):
        out = os.path.join(R.dir, f"energy-{by}.png")
        drawn = ptsim_plot.energy([sweep], out, by=by)
        check_png(out)
        for i, label in enumerate(drawn["labels"]):
            gov = label.split("=")[-1].split("-")[0]
            ids = [r for r in paths if r.startswith(gov + "-")]
            for part in drawn["parts"]:
                expect = np.mean([summary_of(paths[r])[f"{prefix}{part}]"] for r in ids])
                assert math.isclose(drawn["values"][part][i], expect, rel_tol=1e-12, abs_tol=1e-300), (label, part)
            expect_total = np.mean([summary_of(paths[r])[total] for r in ids])
            assert math.isclose(drawn["total"][i], expect_total, rel_tol=1e-9), (by, label, drawn["total"][i], expect_total)

    # 5. The command line: the script itself for two plots (SVG, PDF by extension); its
    #    main() in this process for the rest (the same code, without paying for a new
    #    interpreter and matplotlib each time).
    for args in (["timeline", hot, "-o", "t.svg"], ["heatmap", hot, "-o", "h.pdf", "--at", "peak"]):
        p = subprocess.run([plot_cli, *args], cwd=R.dir, capture_output=True, text=True)
        assert p.returncode == 0, (args, p.stderr)
        with open(os.path.join(R.dir, args[3]), "rb") as f:
            head = f.read(512)
        assert (b"<svg" in head) if args[3].endswith(".svg") else head.startswith(b"%PDF"), head[:100]
    os.chdir(R.dir)
    for args in (["pareto", sweep, "-o", "p.png", "--x", "min:avg_power_W", "--y", "throughput"],
                 ["compare", sweep, "-o", "c.png", "--metrics", "energy_J,latency_p50_s"],
                 ["energy", sweep, "-o", "e.png", "--by", "component"]):
        assert ptsim_plot.main(args) == 0, args
        check_png(os.path.join(R.dir, args[3]))
    for args, needle in [(["timeline", hot, "-o", "x.jpg"], "expected an output file ending in .png"),
                         (["pareto", sweep, "-o", "x.png", "--x", "wall"], "max:wall"),
                         (["compare", sweep, "-o", "x.png", "--metrics", "nope"], "no run has the metric 'nope'"),
                         (["heatmap", hot, "-o", "x.png", "--at", "99 s"], "within the run")]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = ptsim_plot.main(args)
        assert rc == 2 and needle in err.getvalue(), (args, rc, err.getvalue())
        assert not os.path.exists(os.path.join(R.dir, "x.png"))

    # 5. The output rule (ptsim_output, as the C++ writers): an existing file only with
    #    --force, a FIFO written through and left a FIFO, a directory refused, a link followed
    #    and kept, an output another writer holds refused, no .part left behind.
    import stat
    import threading

    import ptsim_output

    def main_rc(args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = ptsim_plot.main(args)
        return rc, err.getvalue()

    with open("exists.png", "wb") as f:
        f.write(b"keep")
    rc, err = main_rc(["timeline", hot, "-o", "exists.png"])
    assert rc == 2 and "exists; refusing to overwrite it (use --force)" in err, (rc, err)
    assert open("exists.png", "rb").read() == b"keep"
    assert main_rc(["timeline", hot, "-o", "exists.png", "--force"])[0] == 0
    check_png("exists.png")
    os.mkfifo("fifo.png")
    got = {}
    reader = threading.Thread(target=lambda: got.update(data=open("fifo.png", "rb").read()))
    reader.start()
    rc, err = main_rc(["timeline", hot, "-o", "fifo.png", "--force"])
    reader.join()
    assert rc == 0, err
    assert got["data"].startswith(b"\x89PNG"), got["data"][:16]
    assert stat.S_ISFIFO(os.lstat("fifo.png").st_mode)
    os.mkdir("dir.png")
    rc, err = main_rc(["timeline", hot, "-o", "dir.png", "--force"])
    assert rc == 2 and "is a directory, not a regular file" in err, (rc, err)
    assert os.listdir("dir.png") == []
    os.symlink("exists.png", "link.png")
    assert main_rc(["heatmap", hot, "-o", "link.png", "--force"])[0] == 0
    assert os.path.islink("link.png")
    check_png("exists.png")
    with ptsim_output.Output("held.png") as held:
        rc, err = main_rc(["timeline", hot, "-o", "held.png", "--force"])
        assert rc == 2 and "is being written by" in err, (rc, err)
        with open(held.path, "wb") as f:
            f.write(b"mine")
    assert open("held.png", "rb").read() == b"mine"
    assert not [n for n in os.listdir(".") if n.endswith(".part")], os.listdir(".")
    with open("stdout.png", "wb") as f:  # -o /dev/stdout: through the descriptor, image only
        subprocess.run([plot_cli, "timeline", hot, "-o", "/dev/stdout"], stdout=f, check=True)
    check_png("stdout.png")
finally:
    R.cleanup()
print("results test_plots: ok")
