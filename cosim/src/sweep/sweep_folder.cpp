#include "sweep_folder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <algorithm>
#include <sstream>

#include "ptsim/postproc/output_file.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim::sweep {

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw folder_error(p.string() + ": cannot read it");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string one_line(std::string s) {
  for (char& ch : s)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return s;
}

fs::path temp_beside(const fs::path& path) {
  return path.string() + ".tmp." + std::to_string(getpid());
}

void make_dir(const fs::path& p) {
  std::error_code ec;
  fs::create_directories(p, ec);
  if (ec) throw folder_error("cannot create the folder " + p.string() + ": " + ec.message());
}

}  // namespace

void write_file_atomic(const fs::path& path, const std::string& text) {
  try {
    postproc::output_file out(path, postproc::output_rules{true, false, false, false});  // never via a link
    out.stream() << text;
    out.commit();
  } catch (const postproc::output_error& e) {
    throw folder_error(std::string("cannot write it: ") + e.what());
  }
}

void sweep_folder::lock_runs(const scenarios::sweep_spec& sweep, const share& mine) const {
  const fs::path p = lock_path();
  const int fd = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) throw folder_error(p.string() + ": cannot open it: " + std::strerror(errno));
  auto held = std::shared_ptr<int>(new int(fd), [](int* f) {
    ::close(*f);  // releases every lock below
    delete f;
  });
  // Process locks (not inherited by the runs, gone when this process ends, however it ends);
  // F_GETLK names the holder of a conflicting one. One byte per run index, so shards of one
  // sweep, which run disjoint runs, share the folder.
  auto lock = [&](off_t start, off_t len) {
    struct flock fl {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = len;
    if (::fcntl(fd, F_SETLK, &fl) == 0) return;
    const int err = errno;
    if (err != EACCES && err != EAGAIN) throw folder_error(p.string() + ": cannot lock it: " + std::strerror(err));
    struct flock q {};
    q.l_type = F_WRLCK;
    q.l_whence = SEEK_SET;
    q.l_start = start;
    q.l_len = len;
    const int pid = ::fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? q.l_pid : 0;
    const std::string run = static_cast<std::size_t>(q.l_start) < sweep.runs.size()
                                ? " (run " + sweep.runs[static_cast<std::size_t>(q.l_start)].id + ")"
                                : std::string();
    throw folder_error(dir_.string() + " is in use by another sweep: " + postproc::describe_holder(pid) +
                       " is running runs of it" + run + "; two sweeps never write one folder at once: "
                       "wait for it to end, or choose another folder with -o");
  };
  if (mine.n == 1) {
    lock(0, static_cast<off_t>(std::max<std::size_t>(sweep.runs.size(), 1)));
  } else {
    for (const auto& run : sweep.runs)
      if (mine.contains(run.index)) lock(static_cast<off_t>(run.index), 1);
  }
  lock_ = std::move(held);
}

namespace {

// A .part of this share that a process still holds, although this sweep holds the share: a
// run of a sweep killed a moment ago, dying with it (its runs get SIGKILL when it ends).
// Waits for it to go, then removes the file; a holder that stays is named.
void remove_stale(const fs::path& part) {
  for (int i = 0; i < 1500; ++i) {  // up to about 30 s
    if (postproc::remove_stale_part(part)) return;
    ::usleep(20000);
  }
  throw folder_error(part.string() + " is being written by another process; refusing to start that run "
                     "beside it: wait for it to end");
}

}  // namespace

scenarios::sweep_manifest sweep_folder::read_manifest() const {
  const fs::path p = manifest_path();
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    throw folder_error(dir_.string() + " is not a sweep folder: it has no sweep.yaml");
  try {
    return scenarios::parse_manifest(slurp(p), p.string());
  } catch (const scenarios::scenario_error& e) {
    throw folder_error(e.what());
  }
}

std::vector<std::size_t> sweep_folder::prepare(const scenarios::sweep_spec& sweep, const std::string& identity,
                                               const share& mine, bool resume) const {
  make_dir(dir_);
  const fs::path man = manifest_path();
  const std::string where = dir_.string();
  auto check_same = [&] {
    const auto m = read_manifest();
    if (m.identity != identity)
      throw folder_error(where + " holds the runs of another sweep (" + m.source +
                         ", or this sweep file or its base scenario as they were before an edit); "
                         "results of different sweeps are never mixed: choose another folder with -o");
  };
  std::error_code ec;
  if (fs::exists(man, ec)) {
    check_same();
  } else {
    if (fs::exists(dir_ / "runs", ec) || fs::exists(dir_ / "summary.h5", ec))
      throw folder_error(where + " has results but no sweep.yaml, so it is not known to hold this sweep; "
                                 "refusing to write into it: choose another folder with -o");
    scenarios::sweep_manifest m;
    m.source = fs::absolute(sweep.file).lexically_normal().string();
    m.identity = identity;
    m.runs = sweep.runs.size();
    m.text = sweep.text;
    // Shards may start together: create exclusively (link fails on an existing name), and
    // whoever loses compares identities like any later arrival.
    const fs::path tmp = temp_beside(man);
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << scenarios::manifest_yaml(m);
      if (!out) throw folder_error(man.string() + ": cannot write it");
    }
    const int rc = link(tmp.c_str(), man.c_str());
    const int link_errno = errno;
    fs::remove(tmp, ec);
    if (rc != 0 && link_errno != EEXIST)
      throw folder_error(man.string() + ": cannot write it: " + std::strerror(link_errno));
    if (rc != 0) check_same();
  }
  make_dir(dir_ / "runs");
  make_dir(dir_ / "records");
  // Everything a sweep writes stays inside DIR: its subfolders are real folders, not links
  // to somewhere else.
  for (const char* sub : {"runs", "records"})
    if (fs::is_symlink(dir_ / sub, ec) || !fs::is_directory(dir_ / sub, ec))
      throw folder_error((dir_ / sub).string() + " is not a folder of its own (a symbolic link, or a file); "
                         "a sweep writes only inside " + where + ": remove it, or choose another folder with -o");
  lock_runs(sweep, mine);

  std::vector<std::size_t> to_run;
  std::vector<std::string> existing;
  for (const auto& run : sweep.runs) {
    if (!mine.contains(run.index)) continue;
    for (const fs::path& p : {result_path(run.id), record_path(run.id)})
      if (fs::is_symlink(p, ec))
        throw folder_error(p.string() + " is a symbolic link; a sweep writes only inside " + where +
                           ", never through a link: remove it");
    const bool has_result = fs::exists(result_path(run.id), ec), has_record = fs::exists(record_path(run.id), ec);
    if (!resume) {
      if (has_result || has_record) existing.push_back(run.id);
      to_run.push_back(run.index);
      continue;
    }
    if (has_result && complete(run.id)) continue;
    if (has_result) fs::remove(result_path(run.id), ec);  // unreadable: redo it
    to_run.push_back(run.index);
  }
  if (!existing.empty())
    throw folder_error(where + " already holds results of " + std::to_string(existing.size()) +
                       " run(s) of this sweep (e.g. runs/" + existing.front() +
                       ".h5); refusing to overwrite them: use --resume to keep them and run the rest, "
                       "or choose another folder with -o");
  // Leftovers of a killed sweep: partial results, and records caught between write and rename.
  for (const auto& run : sweep.runs)
    if (mine.contains(run.index)) {
      remove_stale(part_path(run.id));
      remove_stale(record_path(run.id).string() + ".part");
    }
  return to_run;
}

bool sweep_folder::complete(const std::string& id) const {
  try {
    postproc::result_reader r(result_path(id));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

void sweep_folder::write_record(const std::string& id, const run_record& r) const {
  char wall[32];  // shortest text that reads back exactly
  const auto end = std::to_chars(wall, wall + sizeof wall, r.wall_s).ptr;
  std::ostringstream os;
  os << "status=" << (r.ok ? "ok" : "failed") << "\n"
     << "error=" << one_line(r.error) << "\n"
     << "wall_s=" << std::string(wall, end) << "\n"
     << "wall_host=" << one_line(r.wall_host) << "\n"
     << "wall_rank=" << r.wall_rank << "\n";
  write_file_atomic(record_path(id), os.str());
}

std::optional<run_record> sweep_folder::read_record(const std::string& id) const {
  std::error_code ec;
  const fs::path p = record_path(id);
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p);
  if (!in) return std::nullopt;
  run_record r;
  bool has_status = false;
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "status") {
      r.ok = value == "ok";
      has_status = true;
    } else if (key == "error") {
      r.error = value;
    } else if (key == "wall_s") {
      r.wall_s = std::strtod(value.c_str(), nullptr);
    } else if (key == "wall_host") {
      r.wall_host = value;
    } else if (key == "wall_rank") {
      r.wall_rank = std::strtoll(value.c_str(), nullptr, 10);
    }
  }
  if (!has_status) return std::nullopt;
  return r;
}

void sweep_folder::remove_part(const std::string& id) const { postproc::remove_stale_part(part_path(id)); }

std::size_t sweep_folder::count_parts() const {
  std::size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_ / "runs", ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 8 && name.compare(name.size() - 8, 8, ".h5.part") == 0) ++n;
  }
  return n;
}

}  // namespace ptsim::cosim::sweep
