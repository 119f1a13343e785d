// ptsim trace RESULT.h5 -o TRACE.json [--from T] [--to T]
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "ptsim/postproc/trace.hpp"
#include "ptsim/scenarios/unit_parser.hpp"

namespace ptsim::cosim::cli {

namespace fs = std::filesystem;

int write_trace_file(const fs::path& result, postproc::output_file& out, const postproc::trace_options& opt) {
  try {
    const postproc::result_reader r(result);
    std::ostream& f = out.stream();
    postproc::write_trace(r, f, opt);
    out.commit();  // flushes; renames the .part over the target (or ends a write-through)
  } catch (const std::exception& e) {
    out.abandon();
    std::cerr << "ptsim trace: " << e.what() << "\n";
    return exit_bad_input;
  }
  return exit_ok;
}

namespace {

struct trace_args {
  std::string result, output, from, to;
  bool force = false;
};

// "2.5 s", "300 ms", or a bare number of seconds.
double parse_time(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double bare = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0') {
    if (!std::isfinite(bare)) throw std::invalid_argument(option + ": expected a finite time, found '" + text + "'");
    return bare;
  }
  try {
    return scenarios::parse_si(text, scenarios::dims::time());
  } catch (const scenarios::unit_error& e) {
    throw std::invalid_argument(option + ": " + e.what());
  }
}

}  // namespace

void add_trace(CLI::App& app) {
  auto a = std::make_shared<trace_args>();
  CLI::App* cmd = app.add_subcommand(
      "trace", "Write a run as Chrome trace-event JSON (Perfetto UI, chrome://tracing)");
  cmd->add_option("result", a->result, "Result file (.h5)")->required();
  cmd->add_option("-o,--output", a->output,
                  "Trace file (.json); a FIFO or character device (/dev/stdout) is written through")
      ->required();
  cmd->add_flag("--force", a->force, "Overwrite an existing trace file (a regular file only)");
  cmd->add_option("--from", a->from, "Start of the time window (e.g. \"2 s\", \"500 ms\")")->type_name("TIME");
  cmd->add_option("--to", a->to, "End of the time window")->type_name("TIME");
  cmd->callback([a] {
    postproc::trace_options opt;
    try {
      if (!a->from.empty()) opt.from_s = parse_time("--from", a->from);
      if (!a->to.empty()) opt.to_s = parse_time("--to", a->to);
      if (!(opt.from_s < opt.to_s)) throw std::invalid_argument("--from must be before --to");
    } catch (const std::exception& e) {
      std::cerr << "ptsim trace: " << e.what() << "\n";
      throw CLI::RuntimeError(exit_bad_input);
    }
    postproc::install_cleanup_handlers();  // from the claim on, a signal removes the .part and ends
    auto out = claim_output("trace", a->output, postproc::output_rules{a->force, true, false});
    if (!out) throw CLI::RuntimeError(exit_bad_input);
    const int rc = write_trace_file(a->result, *out, opt);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
