#!/usr/bin/python3
"""The README's component table against the registry, as `ptsim list components` prints it:
the same kinds, and every parameter the table names a key of each kind in its row.

Usage: test_readme_components.py PTSIM README.md
"""
import re
import subprocess
import sys

ptsim, readme = sys.argv[1], sys.argv[2]

# The registry: "kind: description" lines, each followed by "    key  [type] ..." lines.
listing = subprocess.run([ptsim, "list", "components"], check=True, capture_output=True, text=True).stdout
keys = {}
kind = None
for line in listing.splitlines():
    if line and not line.startswith(" "):
        kind = line.split(":", 1)[0]
        keys[kind] = {"kind"}
    elif kind and line.strip():
        keys[kind].add(line.split()[0])
assert len(keys) >= 10, keys.keys()

# The README table under "### Components": | kinds | models | key parameters |.
text = open(readme, encoding="utf-8").read()
section = text.split("### Components", 1)[1].split("\n\n", 2)[1]
rows = [r for r in section.splitlines() if r.startswith("| `")]
assert rows, "no component table found"
documented = {}
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    for k in re.findall(r"`([a-z0-9_]+)`", cells[0]):
        documented[k] = re.findall(r"`([a-z_]+)`", cells[2])

problems = []
for k in sorted(set(keys) - set(documented)):
    problems.append(f"kind '{k}' is registered but not in the README's component table")
for k in sorted(set(documented) - set(keys)):
    problems.append(f"the README's component table lists '{k}', which is not a registered kind")
for k, params in sorted(documented.items()):
    for p in params:
        if k in keys and p not in keys[k]:
            problems.append(f"the README's row for '{k}' names '{p}', which is not one of its keys")
if problems:
    sys.exit("\n".join(problems))
print(f"README component table: {len(documented)} kinds, all registered, every named key valid")
