// A mobile GPU (Arm Mali-G78 MP20 in Google Tensor G1 / gs101): shader cores whose FMA
// lanes run every operator (no tensor cores, so tensor and vector operators share one
// peak), behind the SoC's NoC and its LPDDR, in a DVFS domain that is a devfreq device:
// the domain's governor defaults to policy.devfreq_governor (simple_ondemand, as Mali's
// kbase devfreq registers it). Its time and power are the other compute units' (the
// compute_unit sc_module; C V^2 f a with activity, temperature-dependent leakage, idle
// states).
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {
namespace {

schema_ptr mobile_gpu_schema() {
  // Defaults: a compute shader dispatch (OpenCL/Vulkan) of ~20 us, 256 KiB transactions as
  // the SoC's other NoC initiators; efficiencies as the phone preset's GPU (illustrative).
  return object(
      "mobile GPU (Mali-class): shader cores sharing one set of FMA lanes for every operator, behind the NoC, in a "
      "devfreq DVFS domain (governor: policy.devfreq_governor, default simple_ondemand)",
      compute_fields({"20 us", "256 KiB", "0.5", "0.4"},
                     {req("cores", integer("shader cores", std::nullopt, 1)),
                      req("ops_per_cycle", per_precision_schema("operations per cycle per shader core (FMA = 2), which "
                                                                "tensor and vector operators share")),
                      opt("l2_cache", quantity(dims::bytes(), "L2 holding activations between operators (0: none)",
                                               "0 B", 0.0, false))}));
}

}  // namespace

std::vector<component_kind> mobile_gpu_kind() {
  component_kind k{"mobile_gpu", tlm_config::component_role::compute, mobile_gpu_schema,
                   [](const std::string& n, const view& c, const view& domains, scenario& sc) {
                     // One table for both peaks: "ops_per_cycle" is the tensor and the vector one.
                     resolve_compute(n, "mobile_gpu",
                                     {"cores", "ops_per_cycle", "ops_per_cycle", "l2_cache", false, "", "", ""}, c, domains,
                                     sc);
                   }};
  k.devfreq = true;
  return {k};
}

}  // namespace ptsim::scenarios::detail
