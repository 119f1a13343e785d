// main() of the doctest executables (ptsim_doctest_main); those that need their own main,
// such as the SystemC tests (tlm/sc_test_main.cpp), link only ptsim_doctest_impl.
#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
