#!/usr/bin/python3
"""`ptsim schema` checked by an independent JSON Schema validator (python3-jsonschema,
Draft 2020-12): it is a valid schema; every scenario, preset and comparison file of the
repository passes it as written (templates, loops, `use`, `extends`, removals); and
mistakes an editor should flag are flagged.
Usage: test_json_schema_library.py PRINT_SCHEMA REPO_ROOT"""
import glob
import json
import subprocess
import sys

import jsonschema
import yaml

schema = json.loads(subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout)
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
root = sys.argv[2]

files = sorted(glob.glob(root + "/scenarios/*.yaml") + glob.glob(root + "/scenarios/presets/*.yaml") +
               glob.glob(root + "/validation/*/scenario.yaml") + glob.glob(root + "/validation/platforms/*.yaml"))
assert len(files) >= 10, files
failed = []
for f in files:
    errors = list(v.iter_errors(yaml.safe_load(open(f))))
    if errors:
        failed.append((f, [(list(e.absolute_path), e.message[:160]) for e in errors[:3]]))
assert not failed, failed


def flagged(text):
    return [list(e.absolute_path) for e in v.iter_errors(yaml.safe_load(text))]


# Loops and templates pass; what is wrong beside them is still caught.
ok = """
templates: { big: { kind: cpu_cluster, cores: 4 } }
platform:
  components:
    for i in 0..3:
      "cpu{i}": { use: big }
    npu0: null
thermal:
  floorplan:
    - for i in 0..3: { name: "cpu{i}", x: "{2 * i} mm", y: 0 mm, width: 2 mm, height: 2 mm }
"""
assert flagged(ok) == [], flagged(ok)
assert flagged("platform:\n  components:\n    cpu9: { kind: cpu_cluster, cores: many }\n") == \
    [["platform", "components", "cpu9"]], "a bad type"
assert flagged("duraton: 1 s\n") == [[]], "an unknown top-level key"
assert flagged("platform:\n  components:\n    x: { kind: tpu }\n") == [["platform", "components", "x"]], "a kind"
assert flagged("policy: { governor: fastest }\n") == [["policy", "governor"]], "a governor"
# A derived scenario removes inherited keys with null, sections as well as entries.
assert flagged("extends: default.yaml\npolicy:\n  thermal: null\nplatform:\n  domains: { big: null }\n") == [], \
    "null removes an inherited key"
assert flagged("extends: default.yaml\npolicy:\n  thermal: hot\n") == [["policy", "thermal"]], "a string for a section"
# A mapping of item numbers patches an inherited list; any other key there is flagged, and so is a bad item.
assert flagged('extends: default.yaml\nplatform:\n  domains:\n    npu:\n      opps: { 4: { volt: "760 mV" } }\n') == [], \
    "an item patch"
assert flagged('extends: default.yaml\nplatform:\n  domains:\n    npu:\n      opps: { top: { volt: "760 mV" } }\n') == \
    [["platform", "domains", "npu"]], "a patch key that is not an item number"
assert flagged('extends: default.yaml\nplatform:\n  domains:\n    npu:\n      opps: { 4: { volt: 760 } }\n') == \
    [["platform", "domains", "npu"]], "a patched item of the wrong type"
print("ok:", len(files), "files")
