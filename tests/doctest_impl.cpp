// doctest's implementation, compiled once into ptsim_doctest_impl for every test
// executable (it costs seconds of compile time each; it was compiled once per executable).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
