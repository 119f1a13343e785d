// Reading the inputs a user names: files and pipes are read, directories and devices are
// refused with a reason, before anything is opened.
#include "ptsim/text/input_file.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using ptsim::text::input_file_problem;
using ptsim::text::read_input_file;
using ptsim::text::read_input_file_or_throw;

namespace {
struct scratch {
  fs::path dir;
  scratch() {
    std::string t = (fs::temp_directory_path() / "ptsim-input-XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    dir = t;
  }
  ~scratch() { fs::remove_all(dir); }
};
}  // namespace

TEST_CASE("a regular file is read whole, byte for byte") {
  scratch s;
  const std::string bytes = std::string("name: x\n\0tail\r\n", 15);
  std::ofstream(s.dir / "a.yaml", std::ios::binary) << bytes;
  std::string why;
  const auto got = read_input_file(s.dir / "a.yaml", why);
  REQUIRE(got);
  CHECK(*got == bytes);
  CHECK_FALSE(input_file_problem(s.dir / "a.yaml"));
  // Through a symbolic link too.
  fs::create_symlink(s.dir / "a.yaml", s.dir / "link.yaml");
  CHECK(read_input_file_or_throw(s.dir / "link.yaml", "scenario file") == bytes);
}

TEST_CASE("a missing file, a directory and a device are refused with the reason") {
  scratch s;
  std::string why;
  CHECK_FALSE(read_input_file(s.dir / "missing.yaml", why));
  CHECK(why == "No such file or directory");
  CHECK_FALSE(read_input_file(s.dir, why));
  CHECK(why == "is a directory");
  CHECK_FALSE(read_input_file("/dev/zero", why));  // would never end
  CHECK(why == "is a device, not a file");
  try {
    read_input_file_or_throw(s.dir, "floorplan file");
    FAIL("a directory was read");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == s.dir.string() + ": cannot open floorplan file: is a directory");
  }
}

TEST_CASE("a pipe is read to its end (process substitution hands ptsim one)") {
  scratch s;
  const fs::path fifo = s.dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // The writer's open blocks until the reader opens: no timing assumption.
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << "duration: 1 s\n"; });
  std::string why;
  const auto got = read_input_file(fifo, why);
  writer.join();
  REQUIRE(got);
  CHECK(*got == "duration: 1 s\n");
}
