// .ptrace reading; .ttrace, .steady and grid temperature writing; .steady reading.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <functional>
#include <sstream>
#include <stdexcept>

#include "fixtures.hpp"
#include "ptsim/thermal/ptrace_format.hpp"
#include "ptsim/thermal/temperature_formats.hpp"

using namespace ptsim::thermal;

using test::error_of;

TEST_CASE("ptrace: header, rows, blank and comment lines, CRLF") {
  test::scratch_dir d("ptrace");
  const auto f = d.write("a.ptrace", "\n# power in W\ncore\tcache  io\r\n1.5\t2\t+3e-1\r\n\n   \n4 5 6\n");
  ptrace_reader r(f);
  CHECK(r.names() == std::vector<std::string>{"core", "cache", "io"});
  CHECK(r.header_line() == 3);
  std::vector<double> row;
  REQUIRE(r.next(row));
  CHECK(row == std::vector<double>{1.5, 2.0, 0.3});
  CHECK(r.line() == 4);
  REQUIRE(r.next(row));
  CHECK(row == std::vector<double>{4, 5, 6});
  CHECK(r.line() == 7);
  CHECK_FALSE(r.next(row));
}

TEST_CASE("ptrace errors carry file:line") {
  test::scratch_dir d("ptrace_err");
  std::vector<double> row;
  const auto short_row = d.write("s.ptrace", "a b c\n1 2 3\n1 2\n");
  ptrace_reader r(short_row);
  REQUIRE(r.next(row));
  CHECK(error_of([&] { r.next(row); }) == short_row + ":3: expected 3 power values (one per block in the header), found 2");
  const auto bad = d.write("b.ptrace", "a b\n1 x2\n");
  ptrace_reader rb(bad);
  CHECK(error_of([&] { rb.next(row); }) == bad + ":2: expected a power in W for block 'b' (column 2), found 'x2'");
  const auto nan = d.write("n.ptrace", "a\nnan\n");
  ptrace_reader rn(nan);
  CHECK(error_of([&] { rn.next(row); }).find(":2: expected a power in W") != std::string::npos);
  CHECK(error_of([&] { ptrace_reader x(d.write("d.ptrace", "a b a\n")); }) == d.path("d.ptrace") + ":1: block 'a' appears twice in the header");
  CHECK(error_of([&] { ptrace_reader x(d.write("e.ptrace", "\n\n")); }).find("expected a header line") != std::string::npos);
  CHECK(error_of([&] { ptrace_reader x(d.path("missing.ptrace")); }).find("cannot open") != std::string::npos);
}

TEST_CASE("fixed-point temperatures: HotSpot's 2 decimals or more") {
  std::string s;
  append_fixed(s, 318.154999, 2);
  CHECK(s == "318.15");
  s.clear();
  append_fixed(s, 318.155001, hotspot_decimals);
  CHECK(s == "318.16");
  s.clear();
  append_fixed(s, 300.0, default_decimals);
  CHECK(s == "300.000000");
  std::ostringstream line;
  const double t[] = {300.5, 301.25};
  write_values_line(line, t, 2, 3);
  CHECK(line.str() == "300.500\t301.250\n");
  std::ostringstream head;
  write_names_line(head, {"a", "b"});
  CHECK(head.str() == "a\tb\n");
}

TEST_CASE(".steady written and read back at full precision") {
  test::scratch_dir d("steady");
  const std::vector<std::string> names{"core", "iface_core", "inode_0"};
  const std::vector<double> t{345.678901234, 330.1, 318.15};
  {
    std::ofstream out(d.path("a.steady"));
    write_steady(out, names, t, 9);
  }
  CHECK(d.read("a.steady") == "core\t345.678901234\niface_core\t330.100000000\ninode_0\t318.150000000\n");
  const auto back = read_steady(d.path("a.steady"));
  REQUIRE(back.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(back[i].name == names[i]);
    CHECK(back[i].T_K == ptsim_test::Approx(t[i]).epsilon(1e-12));
    CHECK(back[i].line == i + 1);
  }
  CHECK(error_of([&] { parse_steady("# c\ncore 300\ncore\n", "x.steady"); }) ==
        "x.steady:3: expected 'name temperature', found 1 words: 'core'");
  CHECK(error_of([&] { parse_steady("core hot\n", "x.steady"); }) ==
        "x.steady:1: expected a temperature in K for 'core', found 'hot'");
}

TEST_CASE("grid temperatures: Layer headers, index = i*cols + j") {
  std::ostringstream out;
  const double cells[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 2 layers of 2 x 3
  write_grid_cells(out, cells, 2, 2, 3, 1);
  CHECK(out.str() ==
        "Layer 0:\n0\t1.0\n1\t2.0\n2\t3.0\n3\t4.0\n4\t5.0\n5\t6.0\n"
        "Layer 1:\n0\t7.0\n1\t8.0\n2\t9.0\n3\t10.0\n4\t11.0\n5\t12.0\n");
}
