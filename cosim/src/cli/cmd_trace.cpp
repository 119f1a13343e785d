// ptsim trace RESULT.h5 -o TRACE.json [--from T] [--to T]
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "ptsim/postproc/trace.hpp"
#include "ptsim/scenarios/unit_parser.hpp"

namespace ptsim::cosim::cli {

namespace fs = std::filesystem;

int write_trace_file(const fs::path& result, const fs::path& out, const postproc::trace_options& opt) {
  const fs::path part = out.string() + ".part";
  try {
    const postproc::result_reader r(result);
    {
      std::ofstream f(part, std::ios::binary | std::ios::trunc);
      if (!f) throw std::runtime_error(part.string() + ": cannot create the trace file");
      postproc::write_trace(r, f, opt);
      f.flush();
      if (!f) throw std::runtime_error(part.string() + ": cannot write the trace file");
    }
    fs::rename(part, out);
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove(part, ec);
    std::cerr << "ptsim trace: " << e.what() << "\n";
    return exit_bad_input;
  }
  return exit_ok;
}

namespace {

struct trace_args {
  std::string result, output, from, to;
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
  cmd->add_option("-o,--output", a->output, "Trace file (.json)")->required();
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
    const int rc = write_trace_file(a->result, a->output, opt);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
