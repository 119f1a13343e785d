#include "ptsim/tlm_models/sanitizer_stack.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTSIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PTSIM_ASAN 1
#endif

#ifdef PTSIM_ASAN
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

// ASan's own wrappers, which ours forward to (it has none for munmap).
extern "C" void* __interceptor_mmap(void* addr, std::size_t len, int prot, int flags, int fd, off_t off);
extern "C" int __interceptor_mprotect(void* addr, std::size_t len, int prot);
#endif

namespace ptsim::tlm_models::sanitizer {

#ifdef PTSIM_ASAN

namespace {

// Sets ASan's record to `next` and returns the record it replaces. A fiber switch pair
// on the same stack: the fake stack (if any) is saved and handed back.
stack_range exchange(stack_range next) {
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, reinterpret_cast<const void*>(next.bottom), next.top - next.bottom);
  const void* old_bottom = nullptr;
  std::size_t old_size = 0;
  __sanitizer_finish_switch_fiber(fake, &old_bottom, &old_size);
  const auto b = reinterpret_cast<std::uintptr_t>(old_bottom);
  return {b, b + old_size};
}

bool holds(stack_range r, std::uintptr_t p) { return r.bottom <= p && p < r.top; }

stack_range pthread_stack() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return {};
  void* addr = nullptr;
  std::size_t size = 0;
  const bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!ok) return {};
  const auto b = reinterpret_cast<std::uintptr_t>(addr);
  return {b, b + size};
}

// The mapping of /proc/self/maps that holds `p` (empty if none is found).
stack_range mapping_holding(std::uintptr_t p) {
  std::FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return {};
  stack_range found;
  unsigned long lo = 0, hi = 0;
  char line[512];
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= p && p < hi) {
      found = {lo, hi};
      break;
    }
  std::fclose(f);
  return found;
}

// --- SystemC's coroutine stacks, as libsystemc maps, guards and releases them ---------

struct coroutine_stack {
  std::size_t length = 0;
  bool armed = false;  // its red zone is PROT_NONE: a live thread's stack
};

struct stack_book {
  std::mutex m;
  std::map<std::uintptr_t, coroutine_stack> stacks;  // by base address
};

stack_book& book() {
  static auto* b = new stack_book;  // never destroyed: used until the very end
  return *b;
}

// libsystemc's address range, so that only its own calls are booked.
struct module_range {
  std::uintptr_t lo = 0, hi = 0;
};

int find_systemc(dl_phdr_info* info, std::size_t, void* out) {
  if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libsystemc")) return 0;
  auto* r = static_cast<module_range*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    r->lo = info->dlpi_addr + ph.p_vaddr;
    r->hi = r->lo + ph.p_memsz;
    return 1;
  }
  return 0;
}

bool from_systemc(const void* return_address) {
  static const module_range systemc = [] {
    module_range r;
    dl_iterate_phdr(find_systemc, &r);
    return r;
  }();
  const auto a = reinterpret_cast<std::uintptr_t>(return_address);
  return systemc.lo <= a && a < systemc.hi;
}

void at_exit() {
  record_true_stack();
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::lock_guard<std::mutex> lock(book().m);
  for (const auto& [base, s] : book().stacks)
    if (s.armed && s.length > page) __lsan_register_root_region(reinterpret_cast<void*>(base + page), s.length - page);
}

}  // namespace

bool asan_build() { return true; }

stack_range recorded_stack() {
  const stack_range now = exchange({});
  exchange(now);
  return now;
}

stack_range record_true_stack() {
  int local = 0;
  const auto sp = reinterpret_cast<std::uintptr_t>(&local);
  stack_range truth = pthread_stack();
  if (!holds(truth, sp)) truth = mapping_holding(sp);
  exchange(truth);
  return truth;
}

std::size_t live_coroutine_stacks() {
  std::lock_guard<std::mutex> lock(book().m);
  std::size_t n = 0;
  for (const auto& entry : book().stacks) n += entry.second.armed;
  return n;
}

void record_true_stack_at_exit() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(at_exit); });
}

#else

bool asan_build() { return false; }
stack_range recorded_stack() { return {}; }
stack_range record_true_stack() { return {}; }
std::size_t live_coroutine_stacks() { return 0; }
void record_true_stack_at_exit() {}

#endif

}  // namespace ptsim::tlm_models::sanitizer

#ifdef PTSIM_ASAN
// Interposed for libsystemc (an executable's definitions win over the libraries'); every
// call goes on to ASan's wrapper or the C library, unchanged.
namespace san = ptsim::tlm_models::sanitizer;

extern "C" void* mmap(void* addr, std::size_t len, int prot, int flags, int fd, off_t off) {
  void* p = __interceptor_mmap(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) && san::from_systemc(__builtin_return_address(0))) {
    std::lock_guard<std::mutex> lock(san::book().m);
    san::book().stacks[reinterpret_cast<std::uintptr_t>(p)] = {len, false};
  }
  return p;
}

extern "C" int mprotect(void* addr, std::size_t len, int prot) {
  const int rc = __interceptor_mprotect(addr, len, prot);
  if (rc == 0 && san::from_systemc(__builtin_return_address(0))) {
    std::lock_guard<std::mutex> lock(san::book().m);
    auto it = san::book().stacks.find(reinterpret_cast<std::uintptr_t>(addr));
    if (it != san::book().stacks.end()) it->second.armed = (prot == PROT_NONE);
  }
  return rc;
}

extern "C" int munmap(void* addr, std::size_t len) {
  using munmap_fn = int (*)(void*, std::size_t);
  static const auto real = reinterpret_cast<munmap_fn>(dlsym(RTLD_NEXT, "munmap"));
  const int rc = real(addr, len);
  if (rc == 0 && san::from_systemc(__builtin_return_address(0))) {
    std::lock_guard<std::mutex> lock(san::book().m);
    san::book().stacks.erase(reinterpret_cast<std::uintptr_t>(addr));
  }
  return rc;
}
#endif
