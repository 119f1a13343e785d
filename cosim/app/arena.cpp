// The front end's operator new: for `ptsim validate`, allocations come first from one
// 2 MiB transparent huge page and are never given back; the rest, and every other
// command's, from malloc as before.
//
// `ptsim validate` is a short process that parses a document, builds the schema, checks
// and resolves, prints and exits: ~10,000 allocations (1.3 MB, 0.76 MB at the peak) for
// `scenarios/default.yaml`. Two costs went with them (bench/RESULTS.md "Start-up"): malloc
// and free were a sixth of the process's instructions, and the heap's pages, touched one
// at a time, cost ~200 page faults, the largest single cost of the process where a fault
// is dear (a virtual machine). One huge page takes one fault; memory freed would only go
// back to a heap the process is about to drop. Without transparent huge pages (the kernel's
// setting `never`) there is no arena: small pages without reuse would fault more than the
// heap does.
//
// Linked only into the front end (cosim/CMakeLists.txt), with libstdc++ linked statically:
// its other forms (new[], nothrow, sized delete) call these, and the aligned forms keep
// aligned_alloc and free. The module ptsim-full.so, loaded for the other commands, has its
// own libstdc++ and never sees these (nothing is exported from the executable).
#include "arena.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
constexpr std::size_t alignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
// Set once by use_huge_page_arena, before any allocation it serves; the front end is
// single-threaded (the thermal solvers and the scenario loader start no threads).
char* arena = nullptr;
std::size_t used = 0;

bool in_arena(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(arena);
  return arena && a >= b && a < b + huge_page;
}

// "always" or "madvise" selected in the kernel's transparent huge page setting.
bool huge_pages_enabled() {
  const int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[128] = {};
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return n > 0 && (std::strstr(buf, "[always]") || std::strstr(buf, "[madvise]"));
}

}  // namespace

namespace ptsim::app {

void use_huge_page_arena() {
  if (arena || !huge_pages_enabled()) return;
  // Twice the size, so that an aligned huge page lies inside; the rest is never touched.
  void* p = mmap(nullptr, 2 * huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(p) + huge_page - 1) & ~(huge_page - 1));
  if (madvise(aligned, huge_page, MADV_HUGEPAGE) != 0) {
    munmap(p, 2 * huge_page);
    return;
  }
  arena = aligned;
}

}  // namespace ptsim::app

void* operator new(std::size_t n) {
  const std::size_t rounded = (n + alignment - 1) & ~(alignment - 1);
  if (arena && rounded >= n && rounded <= huge_page - used) {
    void* p = arena + used;
    used += rounded;
    return p;
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  // As libstdc++'s: the new-handler may free memory, else bad_alloc.
  for (;;) {
    std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  }
}

void operator delete(void* p) noexcept {
  if (!in_arena(p)) std::free(p);
}

void operator delete(void* p, std::size_t) noexcept {
  if (!in_arena(p)) std::free(p);
}
