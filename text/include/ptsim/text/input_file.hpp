#pragma once
// Reading an input the user named: a scenario, its base, a sweep, a graph, a trace, a
// floorplan, a config. One rule for all of them: a regular file or a pipe is read (process
// substitution, `ptsim run <(gen)`, hands ptsim a pipe); a directory or a device is
// refused before it is opened, because a directory opens and reads as empty text (which
// then fails to parse with a misleading message) and a device such as /dev/zero never ends.
#include <filesystem>
#include <optional>
#include <string>

namespace ptsim::text {

/// Why `path` cannot be read as an input ("No such file or directory", "is a directory",
/// "is a device, not a file"); nullopt when it can be opened.
std::optional<std::string> input_file_problem(const std::filesystem::path& path);

/// The whole content of `path`; nullopt with `why` set (as input_file_problem words it, or
/// the read error) when it cannot be read.
std::optional<std::string> read_input_file(const std::filesystem::path& path, std::string& why);

/// The whole content of `path`; throws std::runtime_error "<path>: cannot open <what>: <why>"
/// when it cannot be read.
std::string read_input_file_or_throw(const std::filesystem::path& path, const std::string& what);

}  // namespace ptsim::text
