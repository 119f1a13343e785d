#include "run_events.hpp"

#include <cstdio>
#include <string>

namespace ptsim::cosim {

namespace {

std::string fmt_hz(double hz) {
  char b[64];
  std::snprintf(b, sizeof b, "%.0f MHz", hz / 1e6);
  return b;
}

}  // namespace

run_events::run_events(const scenarios::scenario& sc, const control_loop& loop, postproc::result_writer& writer)
    : sc_(sc),
      loop_(loop),
      writer_(writer),
      was_throttled_(sc.domains.size(), false),
      memory_was_hot_(loop.memory_limit_hot().size(), false),
      over_at_floor_since_(sc.domains.size(), -1.0),
      unreachable_said_(sc.domains.size(), false) {
  for (const auto& [domain, lim] : sc.policy.limits)
    for (const auto& note : lim.notes) writer_.add_event({0.0, "warning", domain, note, 0});
}

void run_events::after_tick(double now, const std::vector<dvfs_decision>& decisions) {
  throttling(now);
  memory_limits(now);
  unreachable_board_limits(now);
  for (const auto& dec : decisions)
    writer_.add_event({now, "dvfs", sc_.domains[dec.domain].name,
                       "set " + fmt_hz(dec.hz) +
                           (dec.reason != throttle_reason::none ? std::string(" (") + to_string(dec.reason) + " limit)"
                                                                : std::string()),
                       dec.hz});
}

// A domain held below its governor's request: when it starts (with the ceiling and why) and ends.
void run_events::throttling(double now) {
  for (std::size_t d = 0; d < sc_.domains.size(); ++d) {
    const bool th = loop_.domain_throttled()[d];
    if (th == was_throttled_[d]) continue;
    was_throttled_[d] = th;
    std::string what = "no longer limited";
    if (th) {
      const throttle_reason why = loop_.domain_throttle_reason()[d];
      what = std::string(to_string(why)) + " ceiling " + fmt_hz(loop_.domain_ceiling_hz()[d]) +
             " below the governor's request";
      if (why == throttle_reason::board_power) {
        char b[96];
        std::snprintf(b, sizeof b, " (limit %.6g W, board average %.6g W)", loop_.board_limit_W(d),
                      loop_.board_average_W(d));
        what += b;
      }
    }
    writer_.add_event({now, th ? "throttle_start" : "throttle_end", sc_.domains[d].name, what,
                       loop_.domain_ceiling_hz()[d]});
  }
}

// A memory's own temperature limit (HBM throttling): when it trips and when it releases.
void run_events::memory_limits(double now) {
  for (std::size_t k = 0; k < loop_.memory_limit_hot().size(); ++k) {
    const bool hot = loop_.memory_limit_hot()[k];
    if (hot == memory_was_hot_[k]) continue;
    memory_was_hot_[k] = hot;
    char what[160];
    std::snprintf(what, sizeof what, "%s at %.1f degC, limit %.1f degC: %s", loop_.memory_limit_component(k).c_str(),
                  loop_.memory_limit_block_K(k) - 273.15, loop_.memory_limit_K(k) - 273.15,
                  hot ? "memory clock ceiling " : "memory clock ceiling lifted");
    const std::size_t d = loop_.memory_limit_domain(k);
    const double ceiling = loop_.domain_ceiling_hz()[d];
    writer_.add_event({now, hot ? "memory_throttle_start" : "memory_throttle_end", sc_.domains[d].name,
                       std::string(what) + (hot ? fmt_hz(ceiling) : std::string()), ceiling});
  }
}

// A board power limit below what the board draws at its lowest clock (an A40 limited to
// 100 W draws ~120 W at 210 MHz, as Zeus measured): the limiter can do no more, so the
// run says once, after a whole averaging window at the floor still over the limit.
void run_events::unreachable_board_limits(double now) {
  for (std::size_t d = 0; d < sc_.domains.size(); ++d) {
    if (unreachable_said_[d]) continue;
    const double limit = loop_.board_limit_W(d);
    const auto& opps = sc_.domains[d].opps;
    const bool over_at_floor = limit > 0 && opps.size() > 0 && loop_.domain_throttled()[d] &&
                               loop_.domain_throttle_reason()[d] == throttle_reason::board_power &&
                               loop_.domain_ceiling_hz()[d] <= opps.min_hz() && loop_.board_average_W(d) > limit;
    if (!over_at_floor) {
      over_at_floor_since_[d] = -1.0;
      continue;
    }
    if (over_at_floor_since_[d] < 0) over_at_floor_since_[d] = now;
    const auto lim = sc_.policy.limits.find(sc_.domains[d].name);
    const double window = lim != sc_.policy.limits.end() ? lim->second.window_s : power::default_power_limit_window_s;
    if (now - over_at_floor_since_[d] < window) continue;
    unreachable_said_[d] = true;
    char b[200];
    std::snprintf(b, sizeof b,
                  "board power limit %.6g W cannot be held: at the lowest clock (%s) the board averages %.6g W",
                  limit, fmt_hz(opps.min_hz()).c_str(), loop_.board_average_W(d));
    writer_.add_event({now, "warning", sc_.domains[d].name, b, loop_.board_average_W(d)});
  }
}

}  // namespace ptsim::cosim
