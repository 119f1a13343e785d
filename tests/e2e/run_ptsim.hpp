#pragma once
// Runs the real ptsim executable in a scratch folder and captures what it printed.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace e2e {

namespace fs = std::filesystem;

struct result {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh empty folder under the build tree, removed at the end.
struct scratch {
  fs::path dir;
  explicit scratch(const std::string& name) {
    dir = fs::path(PTSIM_BINARY_DIR) / "e2e-scratch" / (name + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~scratch() { fs::remove_all(dir); }
};

/// Runs `ptsim ARGS` with cwd = dir (through sh, after an optional shell `prefix`).
inline result run_ptsim(const fs::path& dir, const std::string& args, const std::string& prefix = "") {
  const fs::path out = dir / ".stdout", err = dir / ".stderr";
  const std::string cmd = "cd '" + dir.string() + "' && (" + prefix + "'" PTSIM_BINARY_DIR "/ptsim' " + args + ") >'" +
                          out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

inline std::string default_scenario() { return PTSIM_SOURCE_DIR "/scenarios/default.yaml"; }

}  // namespace e2e
