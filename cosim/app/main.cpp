// ptsim: power, thermal and performance co-simulation of ML systems.
//
// The `ptsim` executable is a small front end, so that the commands called thousands of
// times from scripts start fast. `ptsim thermal` (HotSpot-compatible) and `ptsim validate`
// run here: they need only the thermal library (plain C++, Eigen) and the scenario loader
// (yaml-cpp). Every other command (run, report, trace, sweep, list, schema, floorplan, the
// top-level --help and --version) is the full command line, main_cli, in the module
// ptsim-full.so (app/full.cpp), loaded with dlopen only then: it links SystemC, HDF5,
// ISA-L and MPI, whose loading and relocation cost ~13 ms of CPU a process, far more
// than a small thermal model or a scenario check.
#include <dlfcn.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "ptsim/thermal/hotspot_run.hpp"
#ifdef PTSIM_FRONT_END_ARENA
#include "arena.hpp"
#endif

#ifdef PTSIM_SANITIZED
// Sanitizer builds link the full command line in (CMakeLists.txt) instead of loading it:
// LeakSanitizer must see SystemC's thread stacks, which tlm/src/sanitizer_stack.cpp books by
// interposing mmap, and an interposer in a dlopen'ed module comes after libc in the symbol
// lookup order, so it would never see libsystemc's calls.
extern "C" int ptsim_full_main(int argc, char** argv);
#endif

namespace {

#ifndef PTSIM_SANITIZED
// The module's file: next to the executable in the build tree, PTSIM_FULL_MODULE_FROM_BINDIR
// relative to it in an install (bin/ptsim, lib/ptsim/ptsim-full.so), so that an installed
// tree can be moved.
std::vector<std::string> module_candidates() {
  std::string dir = ".";
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    const std::string self(buf, static_cast<std::size_t>(n));
    const auto slash = self.rfind('/');
    if (slash != std::string::npos) dir = self.substr(0, slash);
  }
  return {dir + "/" PTSIM_FULL_MODULE_NAME, dir + "/" PTSIM_FULL_MODULE_FROM_BINDIR};
}

int run_full(int argc, char** argv) {
  std::string errors;
  for (const auto& path : module_candidates()) {
    if (access(path.c_str(), F_OK) != 0) continue;
    // RTLD_LAZY: functions bound at first call, as when these libraries were linked into
    // the executable. RTLD_GLOBAL: Open MPI's own plugins (loaded by MPI_Init) resolve
    // libmpi's symbols from the global scope. RTLD_DEEPBIND: the module's ~50 libraries
    // look symbols up in their own order first, not after this executable's few each time
    // (~1 ms for ~17,000 relocations). That is safe because this executable is compiled
    // without copy relocations (-fPIC, CMakeLists.txt), so that std::cout and the rest
    // have one address. The module exports only its
    // two entry points (full.cpp).
    void* module = dlopen(path.c_str(), RTLD_LAZY | RTLD_GLOBAL | RTLD_DEEPBIND);
    if (!module) {
      errors += std::string("\n  ") + dlerror();
      continue;
    }
    using entry_fn = int (*)(int, char**);
    auto entry = reinterpret_cast<entry_fn>(dlsym(module, "ptsim_full_main"));
    if (!entry) {
      errors += "\n  " + path + ": no ptsim_full_main";
      continue;
    }
    return entry(argc, argv);
  }
  std::cerr << "ptsim: error: cannot load the simulator module " PTSIM_FULL_MODULE_NAME " (looked next to "
               "the executable and in " PTSIM_FULL_MODULE_FROM_BINDIR " from it)"
            << errors << "\n";
  return ptsim::cosim::cli::exit_failed;
}
#else
int run_full(int argc, char** argv) { return ptsim_full_main(argc, argv); }
#endif

}  // namespace

int main(int argc, char** argv) {
  namespace cli = ptsim::cosim::cli;
  // As main_cli: a full disk or a file-size limit must surface as a write error, not as a
  // kill by SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string_view command = argc >= 2 ? argv[1] : "";
  // HotSpot's single-dash options (-steady_file) are not CLI11's: thermal parses its own
  // (as main_cli does).
  if (command == "thermal") {
    const std::vector<std::string> args(argv + 2, argv + argc);
    return ptsim::thermal::run_hotspot_cli(args, std::cout, std::cerr);
  }
  if (command == "validate") {
#ifdef PTSIM_FRONT_END_ARENA
    ptsim::app::use_huge_page_arena();  // its allocations, never freed, in one page (arena.cpp)
#endif
    // The same top level as main_cli's, with only validate added: arguments after
    // `validate` are validate's, so its parse, help and errors are main_cli's.
    CLI::App app{cli::app_description};
    app.set_version_flag("--version", std::string("ptsim ") + PTSIM_VERSION);
    app.require_subcommand(1);
    cli::add_validate(app);
    return cli::parse_and_run(app, argc, argv);
  }
  return run_full(argc, argv);
}
