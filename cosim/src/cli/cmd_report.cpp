// ptsim report RESULT.h5... [--format table|csv|json|markdown]
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "ptsim/postproc/report.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim::cli {

namespace {
struct report_args {
  std::vector<std::string> files;
  std::string format = "table";
};

int report(const report_args& a) {
  postproc::report_format fmt;
  try {
    fmt = postproc::parse_report_format(a.format);
  } catch (const std::invalid_argument& e) {
    std::cerr << "ptsim report: " << e.what() << "\n";
    return exit_bad_input;
  }
  std::vector<postproc::labelled_summary> runs;
  for (const auto& f : a.files) {
    try {
      postproc::result_reader r(f);
      runs.push_back({std::filesystem::path(f).stem().string(), r.summary()});
    } catch (const std::exception& e) {
      std::cerr << "ptsim report: " << e.what() << "\n";
      return exit_bad_input;
    }
  }
  std::cout << postproc::format_report(runs, fmt);
  return exit_ok;
}
}  // namespace

void add_report(CLI::App& app) {
  auto a = std::make_shared<report_args>();
  CLI::App* cmd = app.add_subcommand("report", "Summarise result files (several side by side)");
  cmd->add_option("results", a->files, "Result files (.h5)")->required();
  cmd->add_option("--format", a->format, "table, csv, json or markdown")
      ->check(CLI::IsMember({"table", "csv", "json", "markdown"}));
  cmd->callback([a] {
    const int rc = report(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
