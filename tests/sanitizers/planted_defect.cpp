// Defects planted on purpose, one per run, to prove that the sanitizer pass reports
// them (tests/sanitizers/CMakeLists.txt expects each report in the output):
//   planted_defect leak-in-systemc-thread | leak-in-plain-code |
//                  overflow-in-systemc-thread | use-after-free-in-plain-code
#include "ptsim/tlm_models/sanitizer_stack.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>

namespace {

// A block whose only pointer is dropped: a leak. volatile, so that -O2 keeps the
// allocation and the store.
__attribute__((noinline)) void leak_a_block() {
  char* volatile p = new char[4096];
  p[0] = 1;
  p = nullptr;
}

__attribute__((noinline)) int overflow_a_block(int i) {
  char* volatile p = new char[16];
  p[i] = 1;  // i = 16: one past the end
  const int v = p[0];
  delete[] p;
  return v;
}

__attribute__((noinline)) int use_after_free(int i) {
  char* volatile p = new char[16];
  delete[] p;
  return p[i];
}

struct planter : sc_core::sc_module {
  SC_HAS_PROCESS(planter);
  planter(const sc_core::sc_module_name& n, std::string what) : sc_core::sc_module(n), what_(std::move(what)) {
    SC_THREAD(run);
  }
  // The thread stays suspended to the end, as ptsim's do: its stack is scanned at exit
  // (a root region) and the leak must still be found.
  void run() {
    wait(1, sc_core::SC_NS);
    if (what_ == "leak-in-systemc-thread") leak_a_block();
    if (what_ == "overflow-in-systemc-thread") std::printf("%d\n", overflow_a_block(16));
    wait(never_);
  }
  std::string what_;
  sc_core::sc_event never_;
};

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const std::string what = argc > 1 ? argv[1] : "";
  ptsim::tlm_models::sanitizer::record_true_stack_at_exit();  // as every ptsim platform does
  if (what == "leak-in-plain-code") {
    leak_a_block();
    return 0;
  }
  if (what == "use-after-free-in-plain-code") return use_after_free(3);
  if (what != "leak-in-systemc-thread" && what != "overflow-in-systemc-thread") {
    std::fprintf(stderr, "usage: planted_defect leak-in-systemc-thread|leak-in-plain-code|"
                         "overflow-in-systemc-thread|use-after-free-in-plain-code\n");
    return 2;
  }
  planter p("planter", what);
  sc_core::sc_start();
  return 0;
}

int sc_main(int, char**) { return 2; }
