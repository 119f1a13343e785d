#pragma once
// Enumerated scenario values, one table each: the schema takes its allowed names from the
// table and the reader its values, so the two cannot drift, and a name the table lacks is
// an error rather than a silent default.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/thermal/thermal_config.hpp"
#include "ptsim/tlm_config/op.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::scenarios::detail {

template <typename E>
struct named_value {
  const char* name;
  E value;
};

template <typename E, std::size_t N>
using enum_table = std::array<named_value<E>, N>;

/// The table's names, in its order (the schema's enumeration).
template <typename E, std::size_t N>
std::vector<std::string> names_of(const enum_table<E, N>& t) {
  std::vector<std::string> out;
  for (const auto& e : t) out.emplace_back(e.name);
  return out;
}

/// The value of a name the schema has admitted; std::logic_error for any other (the schema
/// and the table disagree: a defect, not bad input).
template <typename E, std::size_t N>
E value_of(const enum_table<E, N>& t, const std::string& name) {
  for (const auto& e : t)
    if (name == e.name) return e.value;
  throw std::logic_error("'" + name + "' is not in the enumeration the schema checked");
}

inline constexpr enum_table<tlm_config::arrival_kind, 4> arrival_kinds{{{"fixed_rate", tlm_config::arrival_kind::fixed_rate},
                                                                 {"poisson", tlm_config::arrival_kind::poisson},
                                                                 {"closed_loop", tlm_config::arrival_kind::closed_loop},
                                                                 {"trace", tlm_config::arrival_kind::trace}}};

inline constexpr enum_table<tlm_config::batching_kind, 4> batching_kinds{{{"none", tlm_config::batching_kind::none},
                                                                   {"static", tlm_config::batching_kind::static_batch},
                                                                   {"dynamic", tlm_config::batching_kind::dynamic},
                                                                   {"continuous", tlm_config::batching_kind::continuous}}};

inline constexpr enum_table<tlm_config::parallel_kind, 4> parallel_kinds{
    {{"single", tlm_config::parallel_kind::single},
     {"replicas", tlm_config::parallel_kind::replicas},
     {"data", tlm_config::parallel_kind::data},
     {"energy_aware", tlm_config::parallel_kind::energy_aware}}};

inline constexpr enum_table<thermal::package_kind, 3> thermal_models{
    {{"hotspot", thermal::package_kind::hotspot},
     {"phone", thermal::package_kind::phone},
     {"datacenter", thermal::package_kind::datacenter}}};

inline constexpr enum_table<thermal::initial_state, 3> initial_states{{{"ambient", thermal::initial_state::ambient},
                                                                       {"steady", thermal::initial_state::steady},
                                                                       {"file", thermal::initial_state::file}}};

inline constexpr enum_table<tlm_config::op_kind, 12> op_kinds{{{"gemm", tlm_config::op_kind::gemm},
                                                      {"expert_gemm", tlm_config::op_kind::expert_gemm},
                                                      {"conv", tlm_config::op_kind::conv},
                                                      {"attention", tlm_config::op_kind::attention},
                                                      {"per_head_attention", tlm_config::op_kind::per_head_attention},
                                                      {"elementwise", tlm_config::op_kind::elementwise},
                                                      {"norm", tlm_config::op_kind::norm},
                                                      {"embedding", tlm_config::op_kind::embedding},
                                                      {"pool", tlm_config::op_kind::pool},
                                                      {"collective", tlm_config::op_kind::collective},
                                                      {"transfer", tlm_config::op_kind::transfer},
                                                      {"other", tlm_config::op_kind::other}}};

inline constexpr enum_table<tlm_config::op_class, 3> op_classes{
    {{"tensor", tlm_config::op_class::tensor}, {"vector", tlm_config::op_class::vector}, {"scalar", tlm_config::op_class::scalar}}};

inline constexpr enum_table<tlm_config::collective_kind, 3> collective_kinds{
    {{"all_reduce", tlm_config::collective_kind::all_reduce},
     {"all_gather", tlm_config::collective_kind::all_gather},
     {"reduce_scatter", tlm_config::collective_kind::reduce_scatter}}};

}  // namespace ptsim::scenarios::detail
