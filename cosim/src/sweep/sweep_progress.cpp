#include "sweep_progress.hpp"

#include <cstdio>

namespace ptsim::cosim::sweep {

namespace {

std::string clock_text(double s) {
  if (s < 0) s = 0;
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  return buf;
}

}  // namespace

sweep_progress::sweep_progress(std::size_t total, bool tty)
    : total_(total), tty_(tty), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void sweep_progress::clear_bar() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

void sweep_progress::finished(const std::string& id, bool ok, const std::string& error, double wall_s, int rank) {
  ++(ok ? ok_ : failed_);
  if (rank == 0 && running_ > 0) --running_;  // a run here ended; the next tick recounts anyway
  char head[64];
  std::snprintf(head, sizeof head, "[%zu/%zu]", done(), total_);
  const std::string where = rank > 0 ? " (rank " + std::to_string(rank) + ")" : "";
  if (tty_) {
    // On a terminal the bar says it all; only failures deserve a line of their own.
    if (!ok) {
      clear_bar();
      std::fprintf(stderr, "ptsim sweep: %s FAILED %s%s: %s\n", head, id.c_str(), where.c_str(), error.c_str());
    }
    draw(running_);
  } else if (ok) {
    std::fprintf(stderr, "ptsim sweep: %s ok %s%s %.2f s\n", head, id.c_str(), where.c_str(), wall_s);
  } else {
    std::fprintf(stderr, "ptsim sweep: %s FAILED %s%s: %s\n", head, id.c_str(), where.c_str(), error.c_str());
  }
  std::fflush(stderr);
}

void sweep_progress::tick(std::size_t running) {
  running_ = running;
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200)) return;
  draw(running);
}

void sweep_progress::draw(std::size_t running) {
  if (!tty_) return;
  const auto now = std::chrono::steady_clock::now();
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::size_t d = done();
  const double frac = total_ ? static_cast<double>(d) / static_cast<double>(total_) : 1.0;
  constexpr int width = 30;
  const int filled = static_cast<int>(frac * width);
  const std::string eta = d ? clock_text(elapsed * static_cast<double>(total_ - d) / static_cast<double>(d)) : "--:--";
  std::string bar(static_cast<std::size_t>(filled), '=');
  bar.resize(width, ' ');
  std::fprintf(stderr, "\r\033[K[%s] %zu/%zu runs  %zu ok  %zu failed  %zu running  %s elapsed  ETA %s", bar.c_str(), d,
               total_, ok_, failed_, running, clock_text(elapsed).c_str(), eta.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void sweep_progress::close() {
  clear_bar();
  std::fflush(stderr);
}

}  // namespace ptsim::cosim::sweep
