// main() of test_tlm_sc, the one executable that holds every SystemC test. The kernel cannot
// be restarted within a process, so ctest runs it once per test file (--source-file), and
// each file holds one test case that elaborates one platform and calls sc_start once.
#include <cstdlib>
#include <iostream>

#include <doctest/doctest.h>  // implemented in ptsim_doctest_impl

#include "ptsim/tlm_models/sanitizer_stack.hpp"

namespace {

// Counts the test cases the filters let through: a ctest entry whose file filter matches
// nothing (a renamed file) must fail, not pass having run no test.
struct matched_counter : doctest::IReporter {
  static inline unsigned matched = 0;
  explicit matched_counter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& s) override { matched = s.numTestCasesPassingFilters; }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("matched_counter", 1, matched_counter);

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // A platform registers this itself; a test that wires modules by hand (the NVMe one)
  // builds none, and its exit then met LeakSanitizer's stale-stack fault by chance
  // (ptsim/tlm_models/sanitizer_stack.hpp). Once per process, so register it for all.
  ptsim::tlm_models::sanitizer::record_true_stack_at_exit();
  doctest::Context ctx(argc, argv);
  const int rc = ctx.run();
  if (ctx.shouldExit()) return rc;  // --help, --list-test-cases and the like
  if (rc == 0 && matched_counter::matched == 0) {
    std::cerr << "test_tlm_sc: no test case matched the filters\n";
    return 1;
  }
  return rc;
}

// Never called: the tests start the kernel with sc_start from main.
extern "C" int sc_main(int, char**) { return 2; }
