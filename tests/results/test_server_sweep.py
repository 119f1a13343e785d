#!/usr/bin/python3
"""The Python side on a server sweep (issue 17, bug 1): a TP x batch grid of the LLM serving
scenario, every run seed 1, read with ptsim_results.by_configuration and ptsim-plot pareto:
one configuration per grid point, labelled by its parameters. The stored scenario has no YAML
aliases, and the reader follows aliases where a file (an older one) has them.

Usage: test_server_sweep.py PTSIM POSTPROC_DIR
"""
import os

import h5py

from results_fixture import Runs

R = Runs("server-sweep")
try:
    import ptsim_plot
    import ptsim_results

    scenarios = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
    base = os.path.abspath(os.path.join(scenarios, "server-llm-serving.yaml"))
    sweep_file = os.path.join(R.dir, "tp-batch.yaml")
    TP, BATCH = (2, 4), (16, 64, 192)
    with open(sweep_file, "w") as f:
        f.write(f"name: tp-batch\nbase: {base}\n"
                "set: {duration: \"0.4 s\", workload.streams.chat.arrival.rate: \"200 Hz\"}\n"
                f"grid:\n  workload.streams.chat.llm.tensor_parallel: {list(TP)}\n"
                f"  workload.streams.chat.batching.max_batch: {list(BATCH)}\n")
    out = os.path.join(R.dir, "out")
    R.ptsim_cmd("sweep", sweep_file, "-o", out, "-j", "2")
    files = sorted(os.listdir(os.path.join(out, "runs")))
    assert len(files) == len(TP) * len(BATCH), files

    # The stored scenario spells every value out: no anchor, no alias.
    for name in files:
        with h5py.File(os.path.join(out, "runs", name), "r") as f:
            text = f.attrs["scenario"]
            text = text.decode() if isinstance(text, bytes) else text
        for line in text.splitlines():
            assert " &" not in line and ": *" not in line and "- *" not in line, (name, line)
        flat = dict(ptsim_results.flatten_yaml(text))
        assert len(flat) > 100, (name, len(flat))  # the whole platform, not 10 keys

    runs = ptsim_results.open_sweep(out)
    assert set(runs["seed"]) == {1}
    params = runs.attrs["params"]
    assert params == ["workload.streams.chat.batching.max_batch", "workload.streams.chat.llm.tensor_parallel"] or \
        set(params) == {"workload.streams.chat.batching.max_batch", "workload.streams.chat.llm.tensor_parallel"}, params
    configs = ptsim_results.by_configuration(runs)
    assert len(configs) == len(TP) * len(BATCH), configs["label"].tolist()
    assert (configs["n"] == 1).all()
    points = {(int(r["workload.streams.chat.llm.tensor_parallel"]), int(r["workload.streams.chat.batching.max_batch"]))
              for _, r in configs.iterrows()}
    assert points == {(t, b) for t in TP for b in BATCH}, points
    # A configuration of one run is that run: its throughput, not a mean over the grid.
    for _, r in configs.iterrows():
        (run_id,) = r["runs"]
        assert r["throughput"] == runs.loc[run_id, "throughput"]

    drawn = ptsim_plot.pareto(out, os.path.join(R.dir, "pareto.png"))
    assert len(drawn["x"]) == len(TP) * len(BATCH), drawn["labels"]
    assert all(len(ids) == 1 for ids in drawn["runs"])
    p = os.path.join(R.postproc, "ptsim-plot")
    import subprocess
    cli = subprocess.run(["/usr/bin/python3", p, "pareto", out, "-o", os.path.join(R.dir, "p2.png")],
                         capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr

    # Runs of different throughput units side by side (an LLM run in tokens/s, a camera run
    # in inferences/s): no unit is claimed for throughput, each run's is kept.
    camera = R.run("camera.h5")
    llm = os.path.join(out, "runs", files[0])
    mixed = ptsim_results.open_sweep([camera, llm])
    assert "throughput" not in mixed.attrs["units"], mixed.attrs["units"].get("throughput")
    assert mixed.attrs["run_units"]["throughput"] == {"camera": "inferences/s",
                                                      os.path.splitext(files[0])[0]: "tokens/s"}
    assert mixed.attrs["units"]["energy_J"] == "J" and "energy_J" not in mixed.attrs["run_units"]
    drawn = ptsim_plot.compare([camera, llm], os.path.join(R.dir, "mixed.png"), ["throughput", "energy_J"])

    # Any YAML: anchors and aliases followed (what files before schema 1.5 stored).
    aliased = "a: &x {opps: &1 [1, 2], f: \"2 GHz\"}\nb: *x\nc: *1\nd: ~\ne: ''\n"
    assert ptsim_results.flatten_yaml(aliased) == [
        ("a.opps.0", "1"), ("a.opps.1", "2"), ("a.f", "2 GHz"), ("b.opps.0", "1"), ("b.opps.1", "2"),
        ("b.f", "2 GHz"), ("c.0", "1"), ("c.1", "2"), ("d", "null"), ("e", "")]
    bomb = "a: &a [x, x]\n" + "".join(f"{c}: &{c} [*{p}, *{p}]\n" for p, c in zip("abcdefghijklmnopqrst",
                                                                                "bcdefghijklmnopqrstu"))
    try:
        ptsim_results.flatten_yaml(bomb)
        raise AssertionError("an alias bomb was flattened")
    except ValueError as e:
        assert "more than" in str(e), e
    print("ok")
finally:
    R.cleanup()
