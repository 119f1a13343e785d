// The fusion, memory_efficiency, overlap and op_activity keys of compute units, stages and llm streams.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
const ptsim::tlm_config::op_graph& npu_stage(const ps::scenario& sc) { return sc.workload.streams.at(0).stages.at(1).graph; }
// The default scenario's NPU unit as loaded with these --set overrides.
ptsim::tlm_config::compute_unit_config npu_with(std::initializer_list<const char*> sets) {
  const auto sc = ps::load_scenario_text(default_text(), "test.yaml", with_sets(sets));
  for (const auto& u : sc.platform.units)
    if (u.name == "npu") return u;
  FAIL("no unit 'npu' in the default scenario");
  return {};
}
int fused_adds(const ptsim::tlm_config::op_graph& g) {
  int n = 0;
  for (const auto& o : g.ops) n += o.name.find("+residual_add") != std::string::npos;
  return n;
}
}  // namespace

TEST_CASE("a unit's fusion rule set shapes its stages' graphs; a stage overrides it") {
  const auto plain = ps::load_scenario_text(default_text(), "test.yaml");
  CHECK(plain.platform.units.size() > 0);
  CHECK(fused_adds(npu_stage(plain)) == 0);  // default: eager, the graph as built

  // MobileNetV2 has 10 inverted residuals with a residual add after the projection.
  const auto trt = ps::load_scenario_text(default_text(), "test.yaml", with_sets({"platform.components.npu.fusion=tensorrt"}));
  CHECK(fused_adds(npu_stage(trt)) == 10);
  CHECK(npu_stage(trt).ops.size() == npu_stage(plain).ops.size() - 10);
  CHECK(npu_stage(trt).total_ops() == npu_stage(plain).total_ops());

  const std::string text = replace_once(default_text(), "{ unit: npu, model: mobilenet_v2 }",
                                        "{ unit: npu, model: mobilenet_v2, fusion: eager }");
  const auto over = ps::load_scenario_text(text, "test.yaml", with_sets({"platform.components.npu.fusion=tensorrt"}));
  CHECK(fused_adds(npu_stage(over)) == 0);

  // Every operator records its graph's rule set (efficiencies may depend on it: conv_eager).
  for (const auto& o : npu_stage(trt).ops) CHECK(o.rules == ptsim::tlm_config::fusion_rules::tensorrt);
  for (const auto& o : npu_stage(over).ops) CHECK(o.rules == ptsim::tlm_config::fusion_rules::eager);
}

TEST_CASE("memory_efficiency per operator kind: read into the unit; 0 or an unknown kind is an error") {
  const auto sc = ps::load_scenario_text(default_text(), "test.yaml",
                                         with_sets({"platform.components.npu.memory_efficiency.attention=0.6"}));
  bool found = false;
  for (const auto& u : sc.platform.units)
    if (u.name == "npu") found = u.memory_efficiency.at(ptsim::tlm_config::op_kind::attention) == 0.6;
  CHECK(found);

  const auto zero = only_at(load_errors(default_text(), with_sets({"platform.components.npu.memory_efficiency.gemm=0"})),
                            "platform.components.npu.memory_efficiency.gemm");
  CHECK_MESSAGE(zero.message.find("expected a value > 0") != std::string::npos, zero.to_string());
  const auto kind = load_errors(default_text(), with_sets({"platform.components.npu.memory_efficiency.gather=0.5"}));
  REQUIRE(kind.size() == 1);
  CHECK_MESSAGE(kind[0].to_string().find("gather") != std::string::npos, kind[0].to_string());
  const auto bad = load_errors(default_text(), with_sets({"platform.components.npu.fusion=xla"}));
  REQUIRE(bad.size() == 1);
  CHECK_MESSAGE(bad[0].to_string().find("tensorrt") != std::string::npos, bad[0].to_string());
}

TEST_CASE("an llm stream runs its units' fusion rule set unless it names its own") {
  const std::string path = PTSIM_SOURCE_DIR "/scenarios/phone-llm-chat.yaml";
  const auto sc = ps::load_scenario_file(path);
  CHECK(sc.workload.streams.at(0).llm.fusion == ptsim::tlm_config::fusion_rules::tensorrt);  // the phone NPU's
  ps::load_options o = with_sets({"workload.streams.chat.llm.fusion=none"});
  CHECK(ps::load_scenario_file(path, o).workload.streams.at(0).llm.fusion == ptsim::tlm_config::fusion_rules::none);
}

TEST_CASE("op_efficiency per kind and precision (gemm_fp8): read beside the kind's own; a bad suffix is an error") {
  const auto u = npu_with({"platform.components.npu.op_efficiency.gemm=0.7", "platform.components.npu.op_efficiency.gemm_int8=0.4"});
  using ptsim::tlm_config::op_kind;
  using ptsim::tlm_config::precision;
  CHECK(u.op_efficiency.at(op_kind::gemm) == 0.7);
  CHECK(u.op_precision_efficiency.at({op_kind::gemm, precision::int8}) == 0.4);
  CHECK(u.op_precision_efficiency.count({op_kind::gemm, precision::fp16}) == 0);
  for (const char* key : {"gemm_fp9", "gather_fp8", "fp8"}) {
    CAPTURE(key);
    const std::string path = std::string("platform.components.npu.op_efficiency.") + key;
    const auto ds = load_errors(default_text(), with_sets({(path + "=0.5").c_str()}));
    REQUIRE(ds.size() == 1);
    CHECK_MESSAGE(ds[0].to_string().find("such as conv_eager, found '" + std::string(key) + "'") != std::string::npos,
                  ds[0].to_string());
  }
}

TEST_CASE("op_efficiency per kind and fusion rule set (conv_eager): read apart from precisions; a bad one is an error") {
  const auto sc = ps::load_scenario_text(default_text(), "test.yaml",
                                         with_sets({"platform.components.npu.op_efficiency.conv=0.8",
                                                    "platform.components.npu.op_efficiency.conv_eager=0.3",
                                                    "platform.components.npu.op_efficiency.gemm_tensorrt=0.9"}));
  using ptsim::tlm_config::fusion_rules;
  using ptsim::tlm_config::op_kind;
  int found = 0;
  for (const auto& u : sc.platform.units)
    if (u.name == "npu") {
      ++found;
      CHECK(u.op_efficiency.at(op_kind::conv) == 0.8);
      CHECK(u.op_rules_efficiency.at({op_kind::conv, fusion_rules::eager}) == 0.3);
      CHECK(u.op_rules_efficiency.at({op_kind::gemm, fusion_rules::tensorrt}) == 0.9);
      CHECK(u.op_rules_efficiency.size() == 2);
      CHECK(u.op_precision_efficiency.empty());
    }
  CHECK(found == 1);
  const auto ds = load_errors(default_text(), with_sets({"platform.components.npu.op_efficiency.conv_xla=0.5"}));
  REQUIRE(ds.size() == 1);
  CHECK_MESSAGE(ds[0].to_string().find("(eager, none, tensorrt) such as conv_eager, found 'conv_xla'") != std::string::npos,
                ds[0].to_string());
}

namespace {
// A per-operator-kind key of the npu (`field` picks its map in the unit): empty unless set,
// KEY.gemm=`good` read into the unit, KEY.`range_kind`=`out_of_range` an error at that key
// naming the value, an unknown kind an error naming it.
template <class Field>
void check_per_kind_key(const std::string& key, Field field, double good, const std::string& range_kind,
                        const std::string& out_of_range) {
  const std::string at = "platform.components.npu." + key;
  const auto plain = ps::load_scenario_text(default_text(), "test.yaml");
  const std::string set_good = at + ".gemm=" + std::to_string(good), set_over = at + "." + range_kind + "=" + out_of_range,
                    set_kind = at + ".gather=0.5";
  const auto set = ps::load_scenario_text(default_text(), "test.yaml", with_sets({set_good.c_str()}));
  for (const auto& u : plain.platform.units) CHECK(field(u).empty());
  bool found = false;
  for (const auto& u : set.platform.units)
    if (u.name == "npu") found = field(u).size() == 1 && field(u).at(ptsim::tlm_config::op_kind::gemm) == good;
  CHECK(found);
  const auto over = only_at(load_errors(default_text(), with_sets({set_over.c_str()})), at + "." + range_kind);
  CHECK_MESSAGE(over.message.find(out_of_range) != std::string::npos, over.to_string());
  const auto kind = load_errors(default_text(), with_sets({set_kind.c_str()}));
  REQUIRE(kind.size() == 1);
  CHECK_MESSAGE(kind[0].to_string().find("gather") != std::string::npos, kind[0].to_string());
}
}  // namespace

TEST_CASE("overlap per operator kind: none unless set, read into the unit; outside [0, 1] or an unknown kind an error") {
  check_per_kind_key("overlap", [](const auto& u) -> const auto& { return u.overlap; }, 0.4, "gemm", "1.5");
}

TEST_CASE("op_activity per operator kind: none unless set, read into the unit; 0, above 2 or an unknown kind an error") {
  check_per_kind_key("op_activity", [](const auto& u) -> const auto& { return u.op_activity; }, 0.6, "conv", "2.1");
  // Above 1 (kernels that toggle more than c_eff's reference work) is accepted.
  CHECK(npu_with({"platform.components.npu.op_activity.gemm=1.5"}).op_activity.at(ptsim::tlm_config::op_kind::gemm) == 1.5);
  const auto zero = only_at(load_errors(default_text(), with_sets({"platform.components.npu.op_activity.gemm=0"})),
                            "platform.components.npu.op_activity.gemm");
  CHECK_MESSAGE(zero.message.find("expected a value > 0") != std::string::npos, zero.to_string());
}

TEST_CASE("op_activity per kind at one precision: read apart from the kind's; a bad precision an error") {
  const auto u = npu_with({"platform.components.npu.op_activity.conv=0.8", "platform.components.npu.op_activity.conv_fp32=0.6"});
  using ptsim::tlm_config::op_kind;
  using ptsim::tlm_config::precision;
  CHECK(u.op_activity.size() == 1);
  CHECK(u.op_activity.at(op_kind::conv) == 0.8);
  CHECK(u.op_precision_activity.size() == 1);
  CHECK(u.op_precision_activity.at({op_kind::conv, precision::fp32}) == 0.6);
  const auto ds = load_errors(default_text(), with_sets({"platform.components.npu.op_activity.conv_fp9=0.5"}));
  REQUIRE(ds.size() == 1);
  CHECK_MESSAGE(ds[0].to_string().find("such as conv_fp32, or one with a fusion rule set (eager, none, tensorrt) such as conv_eager, found 'conv_fp9'") != std::string::npos, ds[0].to_string());
  CHECK(ds[0].to_string().find("(" + ptsim::tlm_config::precision_names() + ")") != std::string::npos);
}

TEST_CASE("op_activity per kind under one fusion rule set (gemm_tensorrt): read apart from precisions; a bad one is an error") {
  const auto u = npu_with({"platform.components.npu.op_activity.gemm=0.9",
                           "platform.components.npu.op_activity.gemm_tensorrt=1.2",
                           "platform.components.npu.op_activity.gemm_int8=0.7"});
  using ptsim::tlm_config::fusion_rules;
  using ptsim::tlm_config::op_kind;
  using ptsim::tlm_config::precision;
  CHECK(u.op_activity.at(op_kind::gemm) == 0.9);
  CHECK(u.op_rules_activity.size() == 1);
  CHECK(u.op_rules_activity.at({op_kind::gemm, fusion_rules::tensorrt}) == 1.2);
  CHECK(u.op_precision_activity.size() == 1);
  CHECK(u.op_precision_activity.at({op_kind::gemm, precision::int8}) == 0.7);
  const auto ds = load_errors(default_text(), with_sets({"platform.components.npu.op_activity.gemm_xla=1.1"}));
  REQUIRE(ds.size() == 1);
  CHECK_MESSAGE(ds[0].to_string().find("(eager, none, tensorrt) such as conv_eager, found 'gemm_xla'") != std::string::npos,
                ds[0].to_string());
}

TEST_CASE("backward_efficiency per kind and per kind at one precision; a bad key or share is an error") {
  const auto sc = ps::load_scenario_text(default_text(), "test.yaml",
                                         with_sets({"platform.components.npu.backward_efficiency.conv=0.9",
                                                    "platform.components.npu.backward_efficiency.conv_fp32=0.85",
                                                    "platform.components.npu.backward_efficiency.per_head_attention=0.7"}));
  using ptsim::tlm_config::op_kind;
  using ptsim::tlm_config::precision;
  int found = 0;
  for (const auto& u : sc.platform.units)
    if (u.name == "npu") {
      ++found;
      CHECK(u.backward_efficiency.at(op_kind::conv) == 0.9);
      CHECK(u.backward_efficiency.at(op_kind::per_head_attention) == 0.7);
      CHECK(u.backward_efficiency.size() == 2);
      CHECK(u.backward_precision_efficiency.at({op_kind::conv, precision::fp32}) == 0.85);
      CHECK(u.backward_precision_efficiency.size() == 1);
    } else {
      CHECK(u.backward_efficiency.empty());
    }
  CHECK(found == 1);
  for (const char* key : {"conv_eager", "wgrad", "conv_fp9"}) {
    CAPTURE(key);
    const std::string path = std::string("platform.components.npu.backward_efficiency.") + key;
    const auto ds = load_errors(default_text(), with_sets({(path + "=0.5").c_str()}));
    REQUIRE(ds.size() == 1);
    CHECK_MESSAGE(ds[0].to_string().find("such as conv_fp32, found '" + std::string(key) + "'") != std::string::npos,
                  ds[0].to_string());
    // The accepted kinds and precisions are the parsers' own lists, every kind named.
    CHECK(ds[0].to_string().find("an operator kind (" + ptsim::tlm_config::op_kind_names() + ")") != std::string::npos);
    CHECK(ds[0].to_string().find("collective, transfer, other") != std::string::npos);
    CHECK(ds[0].to_string().find("(" + ptsim::tlm_config::precision_names() + ")") != std::string::npos);
  }
  // A share of the forward's: above 1 a backward kernel would outrun the unit's peak.
  for (const char* bad : {"0", "1.2"}) {
    CAPTURE(bad);
    const auto ds = load_errors(default_text(),
                                with_sets({(std::string("platform.components.npu.backward_efficiency.conv=") + bad).c_str()}));
    REQUIRE(ds.size() == 1);
    CHECK_MESSAGE(ds[0].to_string().find("backward_efficiency.conv") != std::string::npos, ds[0].to_string());
  }
}
