// The SystemC stack fix of the sanitizer pass (ptsim/tlm_models/sanitizer_stack.hpp), checked
// in the process where it matters: after SystemC threads have run and finished, ASan's
// record of the main thread's stack is made true again, the exit-time leak check
// survives the worst record SystemC can leave behind (a range whose first page is
// mapped and the rest is not), which crashed LeakSanitizer's tracer before the fix, and
// memory held by a thread still suspended at exit is not reported as leaked.
//
// `test_sanitizer_stack --without-fix` plants the same record without the exit handler:
// ctest expects LeakSanitizer's fatal error from it (the reproduction of the crash).
#include "ptsim/tlm_models/sanitizer_stack.hpp"

#include <sanitizer/common_interface_defs.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <systemc>
#include <vector>

#include <doctest/doctest.h>  // implemented in ptsim_doctest_impl

namespace san = ptsim::tlm_models::sanitizer;

namespace {

bool with_fix = true;

// One thread that returns at once (SystemC leaves it through the unannounced abort
// path), one that waits first (it yields to the kernel, then finishes), and one still
// suspended at exit holding heap memory in a local: not a leak, since its stack is
// registered as a root region at exit (the process exits with LeakSanitizer on).
struct finishing : sc_core::sc_module {
  SC_HAS_PROCESS(finishing);
  explicit finishing(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
    SC_THREAD(at_once);
    SC_THREAD(later);
    SC_THREAD(holder);
  }
  void at_once() { ++finished; }
  void later() {
    wait(1, sc_core::SC_NS);
    ++finished;
  }
  void holder() {
    std::vector<int>* held = new std::vector<int>(1000, 7);
    held_sum = (*held)[999];
    wait(never);
    delete held;
  }
  sc_core::sc_event never;
  int finished = 0;
  int held_sum = 0;
};

bool holds(san::stack_range r, std::uintptr_t p) { return r.bottom <= p && p < r.top; }

// Tells ASan the stack is `r` (a fiber switch announced and finished on the spot).
void record(san::stack_range r) {
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, reinterpret_cast<const void*>(r.bottom), r.top - r.bottom);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
}

}  // namespace

TEST_CASE("after SystemC threads finish, ASan's stack record is made true and exit survives a stale one") {
  REQUIRE(san::asan_build());
  if (with_fix) san::record_true_stack_at_exit();

  finishing top("top");
  sc_core::sc_start();
  REQUIRE(top.finished == 2);
  CHECK(top.held_sum == 7);
  // The holder's stack at least (finished threads' stacks may be released or not yet).
  CHECK(san::live_coroutine_stacks() >= 1);

  int local = 0;
  const auto sp = reinterpret_cast<std::uintptr_t>(&local);
  // What SystemC left (a warning only: if a later SystemC announces its switches
  // correctly, the fix is merely redundant).
  const san::stack_range left = san::recorded_stack();
  WARN_FALSE(holds(left, sp));

  const san::stack_range fixed = san::record_true_stack();
  CHECK(holds(fixed, sp));
  const san::stack_range now = san::recorded_stack();
  CHECK(now.bottom == fixed.bottom);
  CHECK(now.top == fixed.top);

  // Plant the hazard for the exit-time leak check: four pages recorded as the stack, the
  // first readable, the other three not (SystemC leaves an unmapped hole that later mmaps
  // may fill; PROT_NONE keeps this one a hole until exit).
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* region = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(region != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char*>(region) + page, 3 * page, PROT_NONE) == 0);
  const auto b = reinterpret_cast<std::uintptr_t>(region);
  record({b, b + 4 * page});
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--without-fix") == 0) with_fix = false;
    else args.push_back(argv[i]);
  }
  doctest::Context ctx(static_cast<int>(args.size()), args.data());
  return ctx.run();
}

int sc_main(int, char**) { return 2; }
