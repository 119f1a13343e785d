#pragma once
// Keeps AddressSanitizer's idea of the running thread's stack true after SystemC has run.
//
// Why: Debian's SystemC 2.3.4 tells ASan about its coroutine switches only in part. A
// switch back to the main coroutine announces the main coroutine's stack as empty (the
// kernel never records where the main stack is), and a thread that finishes switches
// away through QuickThreads' abort path with no announcement at all, so ASan keeps the
// finished thread's stack as the current one; that stack is munmap'ed when its process
// is deleted. At exit, LeakSanitizer scans the main thread's stack as ASan records it:
// a stale range that the allocator has since re-mapped in part. Its tracer skips the
// unmapped pages at the start of a range but not a hole behind mapped ones, faults on
// it ("Tracer caught signal 11") and the process fails after every test passed, by
// chance of where the next mmap lands.
//
// The fix: before the leak check, tell ASan where the calling thread's stack really is.
//
// A second gap: LeakSanitizer does not know SystemC's coroutine stacks (plain mmap'ed
// memory), so whatever a thread that is still suspended at exit holds in its locals
// looks leaked. ASan builds therefore watch libsystemc's mmap, mprotect and munmap calls
// (the stack, its red zone, its release) and, at exit, register every live coroutine
// stack with LeakSanitizer as a root region, so leaks are reported for SystemC code as
// for any other, without suppressing SystemC as a whole.
//
// Outside ASan builds all of this compiles to nothing.
#include <cstddef>
#include <cstdint>

namespace ptsim::tlm_models::sanitizer {

/// A stack range as ASan records it: [bottom, top).
struct stack_range {
  std::uintptr_t bottom = 0, top = 0;
};

/// True when this build is instrumented by AddressSanitizer.
bool asan_build();

/// ASan's current record of the calling thread's stack (empty outside ASan builds).
stack_range recorded_stack();

/// Records in ASan the real stack of the calling thread: the thread's stack as
/// pthread knows it if the stack pointer lies in it, else the mapping that holds the
/// stack pointer (a coroutine stack). Returns the range now recorded.
stack_range record_true_stack();

/// The coroutine stacks SystemC has now (mapped, red zone armed, not yet released),
/// without their red zones: what the exit handler registers as root regions.
std::size_t live_coroutine_stacks();

/// Registers, once per process, an exit handler that calls record_true_stack() and
/// registers the live coroutine stacks as root regions, before LeakSanitizer's own
/// exit-time check runs (exit handlers run in reverse order of registration, and ASan
/// registers its check at start-up, before any of ours).
void record_true_stack_at_exit();

}  // namespace ptsim::tlm_models::sanitizer
