#!/usr/bin/python3
"""The README's table "Against public measurements" is `ptsim compare --format markdown`'s
output over validation/, verbatim, between the markers <!-- ptsim compare: begin --> and
<!-- ptsim compare: end --> (bench/compare.sh prints it).

Usage: test_readme_compare.py PTSIM VALIDATION_DIR README.md
"""
import subprocess
import sys

ptsim, vdir, readme = sys.argv[1], sys.argv[2], sys.argv[3]
r = subprocess.run([ptsim, "compare", "--dir", vdir, "--format", "markdown"], capture_output=True, text=True)
text = open(readme, encoding="utf-8").read()
begin, end = "<!-- ptsim compare: begin -->\n", "<!-- ptsim compare: end -->"
problems = []
if begin not in text or end not in text:
    problems.append("README.md has no ptsim compare markers")
else:
    table = text.split(begin, 1)[1].split(end, 1)[0]
    if r.returncode != 0:
        problems.append(f"ptsim compare: exit {r.returncode}\n{r.stderr[-2000:]}")
    elif table.strip() != r.stdout.strip():
        import difflib
        diff = "\n".join(difflib.unified_diff(table.strip().splitlines(), r.stdout.strip().splitlines(),
                                              "README.md", "ptsim compare", lineterm=""))
        problems.append("the README's table is not ptsim compare's output (regenerate with bench/compare.sh):\n" + diff)
for p in problems:
    print("FAIL:", p)
print(f"{0 if problems else 1} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
