#pragma once
// The one rule for every file ptsim writes (run results, traces, floorplans, sweep summaries,
// sweep records and manifests): what may be replaced, who owns the temporary file, and how
// the result is published.
//
//  - The target is resolved first: a symbolic link (a chain of them, a dangling one too) is
//    followed and its final target is what the rules below judge and what is written.
//  - Nothing exists there: the output is created. A regular file exists there: it is
//    replaced only with `force` (the command's --force). A FIFO or a character device
//    (`-o /dev/stdout`, `-o /dev/null`) is written through, never renamed over, when the
//    output is a stream of text (`stream_ok`); otherwise it is refused like a directory, a
//    socket or a block device, which are always refused.
//  - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (or a link to one) name a
//    descriptor of this process: a text output is written through it (whatever it is: a terminal, a pipe, a
//    file the shell opened with `>`); a renamed output (HDF5) refuses it.
//  - A file is written as "<target>.part", created exclusively and locked (an open file
//    description lock) for as long as the writer lives; commit() renames it over the
//    target, and that rename is the only moment the target changes. A second writer of the
//    same target finds the locked .part and fails at once, naming the process that holds it;
//    a .part that nobody holds (left by a killed writer) is stale and is taken over.
//  - Without `force`, commit() never replaces what appeared at the target in the meantime.
//  - An uncommitted output is removed by its destructor, and by the signal handlers of
//    install_cleanup_handlers() (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE).
#include <filesystem>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>

namespace ptsim::postproc {

/// Why an output cannot be written; what() is one line naming the path.
struct output_error : std::runtime_error {
  enum class kind {
    exists,     ///< a regular file is there and force was not given
    refused,    ///< not a file ptsim replaces (device, FIFO, socket, directory)
    busy,       ///< another process is writing it
    failed,     ///< the operating system said no
  };
  kind why;
  output_error(kind k, const std::string& what) : std::runtime_error(what), why(k) {}
};

struct output_rules {
  bool force = false;          ///< replace an existing regular file
  bool stream_ok = false;      ///< write through a FIFO or character device (text outputs)
  bool make_parents = false;   ///< create missing parent folders
  /// false: a symbolic link at the target is refused, not followed (files inside a folder
  /// ptsim owns, such as a sweep's summary and records, which must stay inside it).
  bool follow_links = true;
};

class output_file {
 public:
  /// Claims `requested` under `rules`. Throws output_error.
  output_file(const std::filesystem::path& requested, const output_rules& rules);
  ~output_file();  ///< abandon() unless committed
  output_file(output_file&&) noexcept;
  output_file& operator=(output_file&&) noexcept;
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// True when the target is a FIFO or character device written through (no .part).
  bool streaming() const;
  /// The path as the user gave it (for messages).
  const std::filesystem::path& requested() const;
  /// Where the result ends up (symbolic links resolved).
  const std::filesystem::path& target() const;
  /// Where to write: the .part, or the target itself when streaming.
  const std::filesystem::path& write_path() const;
  /// A stream writing to write_path() from its start (the same descriptor the claim holds).
  std::ostream& stream();
  /// Flushes the stream, then publishes: renames the .part over the target. Throws
  /// output_error (the .part is removed).
  void commit();
  /// Removes the .part (if any) and releases the claim. Never throws.
  void abandon() noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

/// Removes `part` if no live writer holds it (a stale .part). Returns false when a live
/// writer holds it; true when it was removed or did not exist.
bool remove_stale_part(const std::filesystem::path& part);

/// A process that holds a lock, for messages: "process 1234 (ptsim run a.yaml -o out.h5)",
/// or "another process" when pid <= 0 or it is not visible from here.
std::string describe_holder(int pid);

/// Installs, for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE (SIGHUP and SIGPIPE only when
/// not ignored at start, as under nohup), handlers that remove every uncommitted .part of this process and then
/// end it by the same signal. A command that stops cooperatively (the simulation loop)
/// installs its own handlers instead and removes its .part on the way out.
void install_cleanup_handlers();
/// The same removal, for a handler of another module: async-signal-safe.
void remove_parts_signal_safe() noexcept;

}  // namespace ptsim::postproc
