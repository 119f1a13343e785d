#!/usr/bin/python3
"""`ptsim report --format html` opened for real in headless Chromium (Debian's `chromium`,
installed by scripts/bootstrap.sh), offline: the page loads with no console message and no
network request, its DOM has the charts (a timeline line per run, an energy segment per
component), the numbers drawn are the files', and a screenshot is not blank.

Usage: test_html_report.py PTSIM POSTPROC_DIR
"""
import os
import re
import shutil
import subprocess

import h5py
import numpy as np

from results_fixture import Runs

R = Runs("html")


def chromium(*args):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "chromium is not installed (scripts/bootstrap.sh installs it)"
    # No network at all: every host unresolvable and a proxy that refuses, so a page that
    # tried to fetch anything would log a net:: error.
    cmd = [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={os.path.join(R.dir, 'profile')}", "--proxy-server=127.0.0.1:9",
           "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


try:
    scen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
    phone = R.run("phone.h5")
    llm = R.run("llm.h5", os.path.join(scen, "phone-llm-chat.yaml"), "--set", "duration=10 s",
                "--set", "workload.streams.chat.arrival.think_time=1 s")
    page = os.path.join(R.dir, "report.html")
    R.ptsim_cmd("report", phone, llm, "--format", "html", "-o", page)
    html = open(page, encoding="utf-8").read()
    # Self-contained: nothing to fetch (the SVG namespace URI is a name, never loaded).
    for needle in ("<script", "src=", "href=", "url(", "@import", "<link"):
        assert needle not in html, needle
    assert re.findall(r"https?://[^\"]+", html) == ["http://www.w3.org/2000/svg"] * html.count("<svg"), \
        set(re.findall(r"https?://[^\"]+", html))

    # The numbers drawn are the files': each energy segment's title is its energy_J[c].
    for path, label in ((phone, "phone"), (llm, "llm")):
        with h5py.File(path, "r") as f:
            for c in f["timeseries/component"].asstr()[()]:
                v = float(f["summary"][f"energy_J[{c}]"][()])
                if v > 0:
                    shown = re.findall(rf"<title>{re.escape(c)}: ([0-9.e+-]+) J</title>", html)
                    assert any(abs(float(s) - v) <= 5e-4 * v for s in shown), (label, c, v, shown)

    # Loads offline: the DOM as Chromium built it, no console message, no network attempt.
    dom = chromium("--dump-dom", "file://" + page)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<polyline") == 2 * 2, dom.stdout.count("<polyline")  # power, temperature x 2 runs
    assert dom.stdout.count("<svg") == 4 and "stream chat" in dom.stdout and "stream camera" in dom.stdout
    for line in dom.stderr.splitlines():
        assert "CONSOLE" not in line and "net::ERR" not in line and "Uncaught" not in line, line

    # A screenshot shows the page: not blank, plenty of colours (tables, bars, lines).
    shot = os.path.join(R.dir, "shot.png")
    p = chromium("--window-size=1100,1400", f"--screenshot={shot}", "file://" + page)
    assert p.returncode == 0 and os.path.getsize(shot) > 10000, p.stderr[-2000:]
    for line in p.stderr.splitlines():
        assert "CONSOLE" not in line and "net::ERR" not in line, line
    import matplotlib.image as mpimg
    img = mpimg.imread(shot)[..., :3]
    assert img.shape[0] >= 1400 and img.shape[1] >= 1100, img.shape
    assert img.reshape(-1, 3).std(axis=0).max() > 0.05
    colours = np.unique((img.reshape(-1, 3) * 255).astype(np.uint8), axis=0)
    assert len(colours) > 50, len(colours)
    # The chart colours are on the page, not only text greys: the energy bars' first colour.
    assert (np.abs(img - np.array([0x4e, 0x79, 0xa7]) / 255).sum(axis=2) < 0.02).sum() > 50
    print("ok")
finally:
    R.cleanup()
