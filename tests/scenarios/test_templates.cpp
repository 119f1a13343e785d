// Templates, loops and removal of inherited keys (README, "Templates and loops").
#include "relative_approx.hpp"
#include <unistd.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "helpers.hpp"

using namespace scen_test;
namespace fs = std::filesystem;

namespace {


std::string scenarios_dir() { return PTSIM_SOURCE_DIR "/scenarios/"; }
std::string server_preset_text() { return read_file(scenarios_dir() + "presets/server-8xh100.yaml"); }
// The GPU parts the server preset extends (the H100 is described there).
std::string parts_text() { return read_file(scenarios_dir() + "presets/gpu-parts.yaml"); }
const std::string h100_anchor = "\n  h100:";

// `from` replaced by `to` at its first occurrence after `anchor` (which must occur).
std::string replace_after(const std::string& text, const std::string& anchor, const std::string& from,
                          const std::string& to) {
  const auto a = text.find(anchor);
  REQUIRE(a != std::string::npos);
  const auto at = text.find(from, a);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}
// Where `needle` first occurs after `anchor`: line and column, from 1.
struct text_position { int line, column; };
text_position position_after(const std::string& text, const std::string& anchor, const std::string& needle) {
  const auto at = text.find(needle, text.find(anchor));
  REQUIRE(at != std::string::npos);
  const auto nl = text.rfind('\n', at);
  return {static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) + 1,
          static_cast<int>(at - (nl == std::string::npos ? 0 : nl + 1)) + 1};
}

// A server scenario (server-training) on `preset_text` (and the GPU parts), written beside its
// graphs' folder.
fs::path training_on(const temp_dir& t, const std::string& preset_text, const std::string& parts = parts_text()) {
  t.write("presets/gpu-parts.yaml", parts);
  t.write("presets/serving-engines.yaml", read_file(scenarios_dir() + "presets/serving-engines.yaml"));
  t.write("presets/request-lengths.yaml", read_file(scenarios_dir() + "presets/request-lengths.yaml"));
  t.write("presets/server-8xh100.yaml", preset_text);
  fs::create_directories(t.dir / "graphs");
  fs::copy(scenarios_dir() + "graphs", t.dir / "graphs", fs::copy_options::overwrite_existing | fs::copy_options::recursive);
  return t.write("training.yaml", read_file(scenarios_dir() + "server-training.yaml"));
}


std::vector<std::string> unit_names(const ps::scenario& sc) {
  std::vector<std::string> out;
  for (const auto& u : sc.platform.units) out.push_back(u.name);
  return out;
}

// A YAML tree as text with every mapping's keys sorted: equal for equal values in any key order.
std::string canonical(const YAML::Node& n) {
  if (n.IsMap()) {
    std::map<std::string, std::string> sorted;
    for (auto it = n.begin(); it != n.end(); ++it) sorted[it->first.Scalar()] = canonical(it->second);
    std::string out = "{";
    for (const auto& [k, v] : sorted) out += k + ": " + v + ", ";
    return out + "}";
  }
  if (n.IsSequence()) {
    std::string out = "[";
    for (const auto& item : n) out += canonical(item) + ", ";
    return out + "]";
  }
  return n.IsNull() ? "~" : n.Scalar();
}

std::vector<std::string> keys_of(const YAML::Node& map) {
  std::vector<std::string> out;
  for (auto it = map.begin(); it != map.end(); ++it) out.push_back(it->first.Scalar());
  return out;
}

}  // namespace

TEST_CASE("the 8-GPU server preset resolves to the platform it held written out") {
  temp_dir t("templates");
  // The same scenario on the preset as it was (a committed copy) and as it is now.
  const auto old_child = training_on(t, read_file(PTSIM_SOURCE_DIR "/tests/scenarios/data/server-8xh100-written-out.yaml"));
  const auto before = ps::load_scenario_file(old_child.string());
  const auto after = ps::load_scenario_file(scenarios_dir() + "server-training.yaml");
  const YAML::Node a = YAML::Load(before.resolved_yaml), b = YAML::Load(after.resolved_yaml);
  CHECK(canonical(a) == canonical(b));
  // Order matters where it numbers things (units, domains, floorplan blocks, dies).
  CHECK(keys_of(a["platform"]["components"]) == keys_of(b["platform"]["components"]));
  CHECK(keys_of(a["platform"]["domains"]) == keys_of(b["platform"]["domains"]));
  CHECK(keys_of(a["thermal"]["datacenter"]["dies"]) == keys_of(b["thermal"]["datacenter"]["dies"]));
  CHECK(unit_names(before) == unit_names(after));
  CHECK(!b["templates"]);  // expanded and dropped
}

TEST_CASE("a loop repeats its entries with the loop variable substituted") {
  const auto sc = ps::load_scenario_file(scenarios_dir() + "server-training.yaml");
  const YAML::Node r = YAML::Load(sc.resolved_yaml);
  int gpus = 0;
  for (const auto& u : sc.platform.units) gpus += u.name.rfind("gpu", 0) == 0;
  CHECK(gpus == 8);
  for (int i = 0; i < 8; ++i) {
    const std::string n = std::to_string(i);
    const YAML::Node gpu = r["platform"]["components"]["gpu" + n];
    REQUIRE(gpu);
    CHECK(gpu["domain"].Scalar() == "gpu" + n);
    CHECK(gpu["connect"].Scalar() == "hbm" + n);
    CHECK(gpu["fabric"].Scalar() == "nvlink" + n);
    CHECK(gpu["io"][0].Scalar() == "pcie_gpu" + n);
    CHECK(r["platform"]["components"]["pcie_gpu" + n]["connect"].Scalar() == (i < 4 ? "pcie_switch0" : "pcie_switch1"));
    CHECK(r["platform"]["domains"]["gpu" + n]["opps"].size() == 110);
    CHECK(r["thermal"]["power_map"]["hbm" + n].Scalar() == "gpu" + n);
    CHECK(r["thermal"]["power_map"]["nvlink" + n].Scalar() == "nvswitch");
    CHECK(r["thermal"]["power_map"]["pcie_gpu" + n].Scalar() == "io");
    // A list loop with arithmetic: four dies a row, 30 mm apart.
    CHECK(r["thermal"]["floorplan"][i]["name"].Scalar() == "gpu" + n);
    CHECK(r["thermal"]["floorplan"][i]["x"].Scalar() == std::to_string(30 * (i % 4)) + " mm");
    CHECK(r["thermal"]["floorplan"][i]["y"].Scalar() == std::to_string(30 * (i / 4)) + " mm");
  }
  CHECK(r["thermal"]["power_map"].size() == 36);
  CHECK(r["thermal"]["floorplan"].size() == 12);
  // An entry beside a loop changes its instance: only socket 0's drive has APST states.
  CHECK(r["platform"]["components"]["nvme0"]["power_states"].size() == 2);
  CHECK(r["platform"]["components"]["nvme0"]["capacity"].Scalar() == "3.84 TB");
  CHECK(!r["platform"]["components"]["nvme1"]["power_states"]);
}

TEST_CASE("--set on a template changes every instance; on an instance, that one") {
  const std::string file = scenarios_dir() + "server-training.yaml";
  const auto base = ps::load_scenario_file(file);
  const double c_eff = power_of(base, "gpu0").compute.c_eff.value();
  auto all = ps::load_scenario_file(file, with_sets({"templates.h100.c_eff=300 nF"}));
  for (int i = 0; i < 8; ++i) CHECK(power_of(all, "gpu" + std::to_string(i)).compute.c_eff.value() == ptsim_test::Approx(300e-9));
  CHECK(contains(all.resolved_yaml, "300 nF"));
  CHECK(!contains(all.resolved_yaml, "templates"));
  auto one = ps::load_scenario_file(file, with_sets({"platform.components.gpu3.c_eff=300 nF"}));
  for (int i = 0; i < 8; ++i)
    CHECK(power_of(one, "gpu" + std::to_string(i)).compute.c_eff.value() == ptsim_test::Approx(i == 3 ? 300e-9 : c_eff));
  // Deeper: a mapping inside the instance is its own, not the template's.
  auto leak = ps::load_scenario_file(file, with_sets({"platform.components.gpu5.leakage.power=70 W"}));
  const YAML::Node r = YAML::Load(leak.resolved_yaml);
  CHECK(r["platform"]["components"]["gpu5"]["leakage"]["power"].Scalar() == "70 W");
  CHECK(r["platform"]["components"]["gpu4"]["leakage"]["power"].Scalar() == "61 W");
  // Both: the instance's value wins over the template's.
  auto both = ps::load_scenario_file(file, with_sets({"templates.h100.c_eff=300 nF", "platform.components.gpu3.c_eff=310 nF"}));
  CHECK(power_of(both, "gpu2").compute.c_eff.value() == ptsim_test::Approx(300e-9));
  CHECK(power_of(both, "gpu3").compute.c_eff.value() == ptsim_test::Approx(310e-9));
  // An unknown template, and a bad value through the template: said once, at the --set,
  // naming every instance.
  auto ds = diagnostics_of([&] { ps::load_scenario_file(file, with_sets({"templates.h10.c_eff=1 nF"})); });
  CHECK(contains(only_at(ds, "templates.h10.c_eff").message, "unknown template 'h10'"));
  ds = diagnostics_of([&] { ps::load_scenario_file(file, with_sets({"templates.h100.c_eff=lots"})); });
  CHECK(ds.size() == 1);
  const auto d = only_at(ds, "platform.components.gpu0.c_eff");
  CHECK(d.file == "--set templates.h100.c_eff");
  CHECK(contains(d.message, "(in instance gpu0 of gpu{i} (i = 0), template h100; the same in gpu1, gpu2, gpu3, gpu4, "
                            "gpu5, gpu6, gpu7)"));
}

TEST_CASE("an error inside an instance names the template's line:column and the instances, once") {
  temp_dir t("templates");
  const std::string parts = replace_once(parts_text(), "    sms: 132\n", "    sms: many\n");
  const auto child = training_on(t, server_preset_text(), parts);
  const auto ds = diagnostics_of([&] { ps::load_scenario_file(child.string()); });
  const auto p = position_of(parts, "many");
  REQUIRE(ds.size() == 1);  // one value written once: one diagnostic, not one per GPU
  const auto d = only_at(ds, "platform.components.gpu0.sms");
  CHECK(d.file == (t.dir / "presets/gpu-parts.yaml").string());
  CHECK(d.line == p.line);
  CHECK(d.column == p.column);
  CHECK(contains(d.message, "expected an integer"));
  CHECK(contains(d.message, "in instance gpu0 of gpu{i} (i = 0), template h100; the same in gpu1, gpu2, gpu3, gpu4, "
                            "gpu5, gpu6, gpu7"));
}

TEST_CASE("a value a derived scenario writes is reported in that file, two levels of extends down") {
  temp_dir t("templates");
  const auto training = training_on(t, server_preset_text());  // training -> preset
  // Over the template (the key is the preset's, the value this file's) ...
  const std::string over_template = "extends: " + training.filename().string() +
                                    "\ntemplates:\n  h100: { sms: many }\n";
  t.write("over-template.yaml", over_template);
  auto ds = diagnostics_of([&] { ps::load_scenario_file((t.dir / "over-template.yaml").string()); });
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == (t.dir / "over-template.yaml").string());
  CHECK(ds[0].line == position_of(over_template, "many").line);
  CHECK(ds[0].column == position_of(over_template, "many").column);
  // ... and over one instance: written beside the loop's place, under its name.
  const std::string over_instance = "extends: " + training.filename().string() +
                                    "\nplatform:\n  components:\n    gpu3: { sms: lots }\n";
  t.write("over-instance.yaml", over_instance);
  ds = diagnostics_of([&] { ps::load_scenario_file((t.dir / "over-instance.yaml").string()); });
  const auto d = only_at(ds, "platform.components.gpu3.sms");
  CHECK(d.file == (t.dir / "over-instance.yaml").string());
  CHECK(d.line == position_of(over_instance, "lots").line);
  CHECK(!contains(d.message, "template h100"));  // the value is gpu3's own, not the template's
}

TEST_CASE("an instance value made by substitution keeps its line:column") {
  temp_dir t("templates");
  // fabric: "nvlnk{i}" names a component that does not exist: reported at the template's value.
  const std::string parts = replace_after(parts_text(), h100_anchor, "fabric: \"nvlink{i}\"", "fabric: \"nvlnk{i}\"");
  const auto ds = diagnostics_of([&] { ps::load_scenario_file(training_on(t, server_preset_text(), parts).string()); });
  const auto p = position_after(parts, h100_anchor, "\"nvlnk{i}\"");
  bool seen = false;
  for (const auto& d : ds)
    if (contains(d.message, "nvlnk2")) {
      seen = true;
      CHECK(d.line == p.line);
      CHECK(d.column == p.column);
      CHECK(contains(d.message, "in instance gpu2 of gpu{i}"));
    }
  CHECK(seen);
}

TEST_CASE("a null key inside a template or loop is an error at its position, not a crash") {
  // Found by fuzz_scenario: `{ null: ... }` has no name to merge the layers by.
  const std::string text =
      replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }", "  power_map:\n    for k in 0..1: { null: mem_ctrl }");
  const auto ds = load_errors(text);
  REQUIRE(!ds.empty());
  const auto p = position_of(text, "null: mem_ctrl");
  CHECK(ds[0].line == p.line);
  CHECK(ds[0].column == p.column);
  CHECK(contains(ds[0].message, "expected a key that is a name"));
}

TEST_CASE("loop and substitution errors: unknown variable, bad range, braces") {
  const std::string text = replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }",
                                        "  power_map:\n    for k in 0..1: { \"x{j}\": mem_ctrl }");
  auto ds = load_errors(text);
  const auto p = position_of(text, "\"x{j}\"");
  REQUIRE(ds.size() == 1);  // said once, not once per value of k
  CHECK(ds[0].line == p.line);
  CHECK(ds[0].column == p.column);
  CHECK(contains(ds[0].message, "unknown loop variable 'j' in '{j}' (loop variables: k)"));

  ds = load_errors(replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }",
                                "  power_map:\n    for k in 3..1: { lpddr: mem_ctrl }"));
  CHECK(contains(ds.at(0).message, "is empty"));
  ds = load_errors(replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }",
                                "  power_map:\n    for k in 0..1: { \"a{k{k}}\": mem_ctrl }"));
  CHECK(contains(ds.at(0).message, "nested '{'"));
  // Outside loops and templates braces are plain text: no error from expansion.
  ds = load_errors(replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }", "  power_map: { \"a{b}\": mem_ctrl }"));
  CHECK(contains(only_at(ds, "thermal.power_map.a{b}").message, "not a component"));
  // A template that is not there.
  ds = load_errors(replace_once(default_text(), "    cpu_little:\n      kind: cpu_cluster\n",
                                "    cpu_little:\n      use: cluster\n      kind: cpu_cluster\n"));
  CHECK(contains(only_at(ds, "platform.components.cpu_little.use").message, "unknown template 'cluster' (templates: none)"));
}

TEST_CASE("a derived scenario removes an inherited component and key with null") {
  temp_dir t("templates");
  fs::create_directories(t.dir / "presets");
  fs::copy(scenarios_dir() + "presets/phone-flagship.yaml", t.dir / "presets/phone-flagship.yaml");
  const std::string head = "extends: presets/phone-flagship.yaml\nname: no-little\n";
  std::string workload = read_file(scenarios_dir() + "phone-llm-chat.yaml");
  workload = workload.substr(workload.find("workload:"));
  workload = workload.substr(0, workload.find("\nthermal:") + 1);
  // Its host work runs on the clusters that stay.
  workload = replace_once(workload, "units: [ cpu_little, cpu_mid, cpu_big ]", "units: [ cpu_mid, cpu_big ]");
  // The component, its domain and its floorplan block (the list is replaced whole); and a key.
  const std::string rows =
      "    - { name: cpu_big,    x: \"0 mm\", y: \"0 mm\", width: \"3 mm\", height: \"3 mm\" }\n"
      "    - { name: cpu_mid,    x: \"3 mm\", y: \"0 mm\", width: \"6 mm\", height: \"3 mm\" }\n"
      "    - { name: gpu,        x: \"9 mm\", y: \"0 mm\", width: \"3 mm\", height: \"8 mm\" }\n"
      "    - { name: npu,        x: \"0 mm\", y: \"3 mm\", width: \"5 mm\", height: \"5 mm\" }\n"
      "    - { name: noc,        x: \"5 mm\", y: \"3 mm\", width: \"4 mm\", height: \"2 mm\" }\n"
      "    - { name: mem_ctrl,   x: \"5 mm\", y: \"5 mm\", width: \"4 mm\", height: \"3 mm\" }\n";
  const auto child = t.write("child.yaml", head +
                                               "platform:\n  domains:\n    little: null\n  components:\n"
                                               "    cpu_little: null\n    lpddr:\n      self_refresh_after: null\n"
                                               "thermal:\n  floorplan:\n" + rows + workload);
  const auto sc = ps::load_scenario_file(child.string());
  const auto names = unit_names(sc);
  CHECK(std::find(names.begin(), names.end(), "cpu_little") == names.end());
  CHECK(std::find(names.begin(), names.end(), "cpu_big") != names.end());
  CHECK(sc.domains.size() == 4);
  const YAML::Node r = YAML::Load(sc.resolved_yaml);
  CHECK(!r["platform"]["components"]["cpu_little"]);
  CHECK(!r["platform"]["components"]["lpddr"]["self_refresh_after"]);
  CHECK(r["platform"]["components"]["lpddr"]["capacity"].Scalar() == "12 GiB");

  // Removing the domain but not the component that runs in it: the error says what still
  // uses the removed name, and where it was removed.
  const auto half = t.write("half.yaml", head + "platform:\n  domains:\n    little: null\n" + workload);
  auto ds = diagnostics_of([&] { ps::load_scenario_file(half.string()); });
  const auto used = only_at(ds, "platform.components.cpu_little.domain");
  CHECK(used.file == (t.dir / "presets/phone-flagship.yaml").string());
  CHECK(contains(used.message, "unknown DVFS domain 'little'"));
  CHECK(contains(used.message, "'little' was removed at " + half.string() + ":5:5"));

  // null with nothing inherited under that name: an error at the key.
  const auto typo = t.write("typo.yaml", head + "platform:\n  components:\n    cpu_litle: null\n" + workload);
  ds = diagnostics_of([&] { ps::load_scenario_file(typo.string()); });
  const auto d = only_at(ds, "platform.components.cpu_litle");
  CHECK(d.file == typo.string());
  CHECK(d.line == 5);
  CHECK(d.column == 5);
  CHECK(contains(d.message, "removes an inherited key, but"));
  CHECK(contains(d.message, "has no 'platform.components.cpu_litle'"));
}

TEST_CASE("nested loops, list values, a template that uses another, and a cycle") {
  std::string text = replace_once(default_text(), "\nname:",
                                  "\ntemplates:\n  little: { use: cluster, cores: 4 }\n"
                                  "  cluster: { kind: cpu_cluster, connect: noc, domain: \"{d}\" }\n"
                                  "  loop: { use: loop }\nname:");
  text = replace_once(text, "  power_map: { lpddr: mem_ctrl }",
                      "  power_map:\n    for m in [lpddr, noc]:\n      for k in 1..1: { \"{m}\": \"mem_{k == 1}\" }");
  // `==` is not an operator: the error names the expression and where it is written.
  auto ds = load_errors(text);
  INFO(ds.at(0).to_string());
  CHECK(contains(ds.at(0).message, "unexpected '== 1' in '{k == 1}'"));
  text = replace_once(text, "\"mem_{k == 1}\"", "\"mem_ctrl\"");
  const auto sc = ps::load_scenario_text(text, "test.yaml");
  const YAML::Node r = YAML::Load(sc.resolved_yaml);
  CHECK(keys_of(r["thermal"]["power_map"]) == std::vector<std::string>{"lpddr", "noc"});
  CHECK(!r["templates"]);

  // cpu_little from two templates, its domain from a loop variable of the list loop.
  const std::string little =
      "    cpu_little:\n      kind: cpu_cluster\n"
      "      capacity-dmips-mhz: 250        # gs101.dtsi, Cortex-A55 (upstream Linux arch/arm64/boot/dts/exynos/google)\n"
      "      domain: little\n      connect: noc\n      cores: 4\n"
      "      ops_per_cycle: { fp32: 8, fp16: 16, int8: 32 }\n";
  const auto placed = ps::load_scenario_text(
      replace_once(text, little,
                   "    for d in [little]:\n      \"cpu_{d}\":\n        use: little\n"
                   "        ops_per_cycle: { fp32: 8, fp16: 16, int8: 32 }\n        c_eff: \"280 pF\"\n"
                   "    cpu_little:\n"),  // the rest of cpu_little, beside the loop, changes its instance
      "test.yaml");
  const YAML::Node p = YAML::Load(placed.resolved_yaml)["platform"]["components"]["cpu_little"];
  CHECK(p["kind"].Scalar() == "cpu_cluster");
  CHECK(p["domain"].Scalar() == "little");
  CHECK(p["cores"].Scalar() == "4");
  CHECK(p["c_eff"].Scalar() == "280 pF");
  CHECK(keys_of(YAML::Load(placed.resolved_yaml)["platform"]["components"]) ==
        keys_of(YAML::Load(sc.resolved_yaml)["platform"]["components"]));

  ds = load_errors(replace_once(text, little, "    cpu_little:\n      use: loop\n"));
  CHECK(contains(only_at(ds, "platform.components.cpu_little.use").message, "template 'loop' uses itself"));
}

TEST_CASE("null outside extends is still refused, at its line:column") {
  const std::string text = replace_once(default_text(), "  power_map: { lpddr: mem_ctrl }", "  power_map: { lpddr: null }");
  const auto ds = load_errors(text);
  const auto d = only_at(ds, "thermal.power_map.lpddr");
  CHECK(d.line == position_of(text, "null }").line);
}

TEST_CASE("a derived scenario removes or changes one instance of an inherited loop") {
  temp_dir t("templates");
  training_on(t, server_preset_text());
  // gpu7 without its PCIe port: the port, its power_map entry and gpu7's io changed.
  const auto ok = t.write("no-pcie7.yaml", "extends: training.yaml\nname: x\nplatform:\n  components:\n"
                                           "    pcie_gpu7: null\n    gpu7: { io: [] }\n"
                                           "thermal:\n  power_map:\n    pcie_gpu7: null\n");
  const auto sc = ps::load_scenario_file(ok.string());
  const YAML::Node r = YAML::Load(sc.resolved_yaml);
  CHECK(!r["platform"]["components"]["pcie_gpu7"]);
  CHECK(r["platform"]["components"]["pcie_gpu6"]);
  CHECK(r["platform"]["components"].size() == 46);
  CHECK(r["platform"]["components"]["gpu7"]["io"].size() == 0);
  CHECK(r["platform"]["components"]["gpu7"]["sms"].Scalar() == "132");  // the rest of the instance stays
  CHECK(!r["thermal"]["power_map"]["pcie_gpu7"]);

  // Removing nvlink7 alone: what still uses it says so, and where it was removed.
  const auto half = t.write("no-nvlink7.yaml", "extends: training.yaml\nname: x\nplatform:\n  components:\n"
                                               "    nvlink7: null\n");
  auto ds = diagnostics_of([&] { ps::load_scenario_file(half.string()); });
  const auto d = only_at(ds, "platform.components.gpu7.fabric");
  CHECK(d.file == (t.dir / "presets/gpu-parts.yaml").string());
  CHECK(d.line == position_after(parts_text(), h100_anchor, "fabric: \"nvlink{i}\"").line);
  CHECK(contains(d.message, "in instance gpu7 of gpu{i} (i = 7), template h100"));
  CHECK(contains(d.message, "'nvlink7' was removed at " + half.string() + ":5:5"));

  // An instance no loop makes.
  const auto typo = t.write("typo.yaml", "extends: training.yaml\nname: x\nplatform:\n  components:\n    nvlink9: null\n");
  ds = diagnostics_of([&] { ps::load_scenario_file(typo.string()); });
  const auto e = only_at(ds, "platform.components.nvlink9");
  CHECK(e.file == typo.string());
  CHECK(e.line == 5);
  CHECK(contains(e.message, "removes an instance of a loop, but no loop before it here makes 'nvlink9'"));
}

TEST_CASE("a file a base scenario names is found beside the base, wherever the derived file is") {
  temp_dir t("templates");
  training_on(t, server_preset_text());  // training.yaml names graphs/bert-data-loader.yaml
  // In another folder: the base's graph is still the one beside the base (it used to be
  // looked for beside the derived file, other/graphs/..., and not found).
  fs::create_directories(t.dir / "other/graphs");
  const auto child = t.write("other/child.yaml", "extends: ../training.yaml\nname: elsewhere\n");
  const auto sc = ps::load_scenario_file(child.string());
  CHECK(sc.name == "elsewhere");
  // A graph the derived file names itself is relative to the derived file.
  fs::copy(t.dir / "graphs/bert-data-loader.yaml", t.dir / "other/graphs/mine.yaml");
  const auto own = t.write("other/own.yaml", "extends: ../training.yaml\nworkload: { streams: { train: { stages: [ "
                                             "{ unit: cpu0, graph: graphs/mine.yaml, precision: fp32 } ] } } }\n");
  CHECK_NOTHROW(ps::load_scenario_file(own.string()));
  const auto missing = t.write("other/missing.yaml", "extends: ../training.yaml\nworkload: { streams: { train: { stages: [ "
                                                     "{ unit: cpu0, graph: graphs/bert-data-loader.yaml, precision: fp32 } ] } } }\n");
  const auto ds = diagnostics_of([&] { ps::load_scenario_file(missing.string()); });
  CHECK(contains(ds.at(0).message, (t.dir / "other/graphs/bert-data-loader.yaml").string()));
}
