#pragma once
// A registry of governors by name, each with its description, tunables and factory: the
// cpufreq governors and the thermal governors are each one (governor.hpp,
// thermal_governor.hpp). A user adds one without touching the core, e.g. from main()
// before scenarios load.
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ptsim::power {

/// Tunables by name (e.g. "up_threshold" -> 95, "rate_limit_us" -> 2000).
using tunables = std::map<std::string, double>;

struct tunable_info {
  std::string name;
  double default_value;  ///< NaN: derived when not set (the meaning says how)
  std::string meaning;
};

struct governor_info {
  std::string name;
  std::string description;
  std::vector<tunable_info> tunables;
};

namespace detail {
/// "valid: a, b, c" plus "(did you mean 'x'?)" when one name is close to what was given.
std::string valid_list(const std::string& given, const std::vector<std::string>& names);
}  // namespace detail

template <typename Governor>
class registry {
 public:
  using factory = std::function<std::unique_ptr<Governor>(const tunables&)>;

  void register_governor(governor_info info, factory make) {
    if (info.name.empty()) throw std::invalid_argument("register_governor: empty governor name");
    if (!make) throw std::invalid_argument("register_governor: '" + info.name + "' has no factory");
    // Replacing a governor silently would make a scenario's meaning depend on link order.
    if (entries_.count(info.name))
      throw std::invalid_argument("register_governor: a " + kind_ + " named '" + info.name +
                                  "' is already registered");
    std::string name = info.name;
    entries_.emplace(std::move(name), std::make_pair(std::move(info), std::move(make)));
  }

  bool contains(const std::string& name) const { return entries_.count(name) != 0; }

  /// Throws std::invalid_argument for an unknown name (the message lists the valid ones).
  const governor_info& info(const std::string& name) const {
    const auto it = entries_.find(name);
    if (it == entries_.end())
      throw std::invalid_argument("unknown " + kind_ + " '" + name + "'; " + detail::valid_list(name, names()));
    return it->second.first;
  }

  /// Throws std::invalid_argument for an unknown name or tunable, or a tunable the
  /// governor refuses (the message names the governor).
  std::unique_ptr<Governor> create(const std::string& name, const tunables& t) const {
    const governor_info& gi = info(name);
    std::vector<std::string> valid;
    for (const auto& ti : gi.tunables) valid.push_back(ti.name);
    for (const auto& kv : t) {
      bool known = false;
      for (const auto& v : valid) known = known || v == kv.first;
      if (!known)
        throw std::invalid_argument("unknown tunable '" + kv.first + "' for " + kind_ + " '" + name + "'; " +
                                    detail::valid_list(kv.first, valid));
    }
    try {
      return entries_.at(name).second(t);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(kind_ + " '" + name + "': " + e.what());
    }
  }

  std::vector<governor_info> list() const {  ///< sorted by name
    std::vector<governor_info> out;
    for (const auto& e : entries_) out.push_back(e.second.first);
    return out;
  }

  std::vector<std::string> names() const {  ///< sorted
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.first);
    return out;
  }

  /// Changes whenever a governor is registered (lets caches of the names refresh).
  std::size_t generation() const { return entries_.size(); }

 protected:
  explicit registry(std::string kind) : kind_(std::move(kind)) {}

 private:
  std::string kind_;  ///< "cpufreq governor", "thermal governor": for messages
  std::map<std::string, std::pair<governor_info, factory>> entries_;
};

}  // namespace ptsim::power
