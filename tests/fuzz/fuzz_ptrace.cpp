// libFuzzer: HotSpot power traces (.ptrace), streamed row by row as `ptsim thermal` reads
// them, and temperature files (.steady / -init_file), which share the reader's word
// splitting. Malformed input gives std::runtime_error "file:line: ...".
// ptrace_reader reads a file: the input goes to an in-memory file (memfd) first.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/thermal/ptrace_format.hpp"
#include "ptsim/thermal/temperature_formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("fuzz.ptrace", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  try {
    ptsim::thermal::ptrace_reader r(path);
    std::vector<double> row;
    while (r.next(row)) {
      if (row.size() != r.names().size()) std::abort();  // the reader's promise
    }
  } catch (const std::runtime_error&) {
  }
  try {
    (void)ptsim::thermal::parse_steady(std::string(reinterpret_cast<const char*>(data), size), "fuzz.steady");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
