// output_file: the claim, write and publication of one output (see output_file.hpp).
#include "ptsim/postproc/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <streambuf>
#include <vector>

namespace ptsim::postproc {

namespace fs = std::filesystem;

namespace {

using kind = output_error::kind;

std::string os_error(int err) { return std::strerror(err); }

// --- the .part files of this process, for the signal handlers --------------------------------

constexpr int max_parts = 32;
constexpr std::size_t max_part_path = 4096;
struct part_slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 live
  char path[max_part_path];
};
part_slot slots[max_parts];

int register_part(const fs::path& p) {
  const std::string s = p.string();
  if (s.size() >= max_part_path) return -1;
  for (int i = 0; i < max_parts; ++i) {
    int expected = 0;
    if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slots[i].path, s.c_str(), s.size() + 1);
    slots[i].state.store(2);
    return i;
  }
  return -1;  // more than 32 outputs at once: only the destructor removes this one
}

void unregister_part(int slot) {
  if (slot >= 0) slots[slot].state.store(0);
}

// --- locks ---------------------------------------------------------------------------------
// The claim is an open file description lock on byte 0 of the .part: it stays as long as the
// claim's descriptor is open, whoever else (HDF5) opens and closes the file. A classic
// process lock on byte 1 is taken beside it only so that a second writer can learn who the
// first one is (F_GETLK reports the holder's pid for those; not for description locks).

bool lock_byte(int fd, int cmd, off_t byte) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = byte;
  fl.l_len = 1;
  return fcntl(fd, cmd, &fl) == 0;
}

int holder_of_byte(int fd, off_t byte) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = byte;
  fl.l_len = 1;
  if (fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK) return 0;
  return fl.l_pid;
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// True when `path` is a .part that a live writer holds (someone naming another writer's
// temporary file as an output): replacing it would swap that writer's data.
bool held_by_writer(const fs::path& path) {
  const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (f < 0) return false;
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = 1;
  const bool held = ::fcntl(f, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  ::close(f);
  return held;
}

const char* type_name(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISLNK(m)) return "a symbolic link";
  return "not a regular file";
}

// --- writing to a descriptor -----------------------------------------------------------------

class fd_buf : public std::streambuf {
 public:
  explicit fd_buf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        err_ = n < 0 ? errno : EIO;
        setp(buf_.data(), buf_.data() + buf_.size());
        return false;
      }
      p += n;
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  std::vector<char> buf_;
  int err_ = 0;
};

// --- where the output goes ------------------------------------------------------------------

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor of this process, by
// name. Written through that descriptor, whatever it is (a terminal, a pipe, a file the
// shell opened with `>`): never resolved to a file and renamed over.
int named_descriptor(const fs::path& p) {
  const std::string s = p.lexically_normal().string();
  if (s == "/dev/stdout") return 1;
  if (s == "/dev/stderr") return 2;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string pre = prefix;
    if (s.size() > pre.size() && s.compare(0, pre.size(), pre) == 0 &&
        s.find_first_not_of("0123456789", pre.size()) == std::string::npos && s.size() - pre.size() < 9)
      return std::atoi(s.c_str() + pre.size());
  }
  return -1;
}

// The descriptor that `p`, or a link (chain) at p, names; -1 when none does.
int linked_descriptor(const fs::path& p) {
  fs::path cur = p;
  for (int hops = 0; hops < 40; ++hops) {
    if (const int n = named_descriptor(cur); n >= 0) return n;
    struct stat lst {};
    if (::lstat(cur.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) return -1;
    std::error_code ec;
    const fs::path to = fs::read_symlink(cur, ec);
    if (ec) return -1;
    cur = to.is_absolute() ? to : cur.parent_path() / to;
  }
  return -1;
}

enum class found { nothing, regular, stream };
struct resolved {
  fs::path target;
  found what = found::nothing;
};

resolved resolve(const fs::path& requested, const output_rules& rules) {
  const std::string shown = requested.string();
  if (requested.empty()) throw output_error(kind::refused, "an empty output path");
  fs::path cur = requested;
  if (!rules.follow_links) {
    struct stat lst {};
    if (::lstat(cur.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
      throw output_error(kind::refused, shown + " is a symbolic link; this file is written only inside its own "
                                                "folder, never through a link: remove the link");
  }
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    const std::string via = cur == requested ? std::string() : " (a link to " + cur.string() + ")";
    if (::stat(cur.c_str(), &st) == 0) {
      if (S_ISREG(st.st_mode)) {
        char* real = ::realpath(cur.c_str(), nullptr);
        if (!real) throw output_error(kind::failed, shown + via + ": cannot resolve it: " + os_error(errno));
        resolved r{fs::path(real), found::regular};
        std::free(real);
        return r;
      }
      if ((S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) && rules.stream_ok) return {cur, found::stream};
      std::string why = shown + via + " is " + type_name(st.st_mode) + ", not a regular file; ";
      if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
        why += "this output is written under a temporary name and renamed, which ptsim does only over a regular file";
      else
        why += "ptsim never replaces one, with or without --force";
      throw output_error(kind::refused, why + ": name a file");
    }
    const int err = errno;
    if (err != ENOENT) throw output_error(kind::failed, shown + via + ": " + os_error(err));
    struct stat lst {};
    if (::lstat(cur.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {  // a dangling link: where it points
      std::error_code ec;
      const fs::path to = fs::read_symlink(cur, ec);
      if (ec) throw output_error(kind::failed, shown + via + ": cannot read the link: " + ec.message());
      cur = to.is_absolute() ? to : cur.parent_path() / to;
      continue;
    }
    const fs::path name = cur.filename();
    if (name.empty() || name == "." || name == "..")
      throw output_error(kind::refused, shown + " names a folder, not a file: name a file");
    fs::path parent = cur.parent_path();
    if (parent.empty()) parent = ".";
    std::error_code ec;
    if (!fs::exists(parent, ec) && rules.make_parents) {
      fs::create_directories(parent, ec);
      if (ec) throw output_error(kind::failed, shown + via + ": cannot create the folder " + parent.string() + ": " + ec.message());
    }
    char* real = ::realpath(parent.c_str(), nullptr);
    if (!real)
      throw output_error(kind::failed, cur.string() + ".part: cannot create it: the folder " + parent.string() + ": " +
                                           os_error(errno));
    resolved r{fs::path(real) / name, found::nothing};
    std::free(real);
    return r;
  }
  throw output_error(kind::failed, shown + ": too many levels of symbolic links");
}

}  // namespace

namespace {

// The process (other than this one) with `path` open, found through /proc/*/fd: the fallback
// when the holder's naming lock is gone (HDF5 closing a descriptor of its own on the file
// drops every process lock this process had on it). 0 when none is visible.
int process_with_open(const fs::path& path) {
  struct stat want {};
  if (::stat(path.c_str(), &want) != 0) return 0;
  std::error_code ec;
  const int self = static_cast<int>(::getpid());
  for (const auto& proc : fs::directory_iterator("/proc", ec)) {
    const std::string name = proc.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int pid = std::atoi(name.c_str());
    if (pid == self) continue;
    std::error_code fec;
    for (const auto& fd : fs::directory_iterator(proc.path() / "fd", fec)) {
      struct stat st {};
      if (::stat(fd.path().c_str(), &st) == 0 && same_file(st, want)) return pid;
    }
  }
  return 0;
}

}  // namespace

std::string describe_holder(int pid) {
  if (pid <= 0) return "another process";
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  for (char& c : cmd)
    if (c == '\0') c = ' ';
  if (cmd.size() > 200) cmd = cmd.substr(0, 200) + "...";
  return "process " + std::to_string(pid) + (cmd.empty() ? std::string() : " (" + cmd + ")");
}

struct output_file::impl {
  fs::path requested, target, part;
  output_rules rules;
  bool streaming = false;
  bool done = false;
  int fd = -1;
  int slot = -1;
  struct stat part_st {};
  std::unique_ptr<fd_buf> buf;
  std::unique_ptr<std::ostream> os;

  // The path as given, and where it leads when that is not the same file name (a link).
  std::string shown() const {
    if (requested == target) return requested.string();
    std::error_code ec;
    const fs::path abs = fs::absolute(requested, ec).lexically_normal();
    if (ec || abs == target) return requested.string();
    return requested.string() + " (" + target.string() + ")";
  }

  void claim_part() {
    for (int attempt = 0; attempt < 20; ++attempt) {
      int f = ::open(part.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
      bool fresh = f >= 0;
      if (f < 0) {
        if (errno != EEXIST) throw output_error(kind::failed, part.string() + ": cannot create it: " + os_error(errno));
        f = ::open(part.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (f < 0) {
          if (errno == ENOENT) continue;  // its writer just finished or removed it
          if (errno == ELOOP)
            throw output_error(kind::refused, part.string() + " is a symbolic link; ptsim does not write through it: remove it");
          throw output_error(kind::failed, part.string() + ": cannot open it: " + os_error(errno));
        }
        struct stat st {};
        if (::fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
          ::close(f);
          throw output_error(kind::refused, part.string() + " exists and is " + type_name(st.st_mode) +
                                                ", not a writer's temporary file: remove it");
        }
      }
      if (!lock_byte(f, F_OFD_SETLK, 0)) {
        int holder = holder_of_byte(f, 1);
        ::close(f);
        if (holder <= 0) holder = process_with_open(part);
        throw output_error(kind::busy, shown() + " is being written by " + describe_holder(holder) + " (it holds " +
                                           part.string() + "); refusing to write it at the same time");
      }
      // Still the file at that name? (Its writer may have renamed it to the target meanwhile.)
      struct stat mine {}, there {};
      if (::fstat(f, &mine) != 0 || ::lstat(part.c_str(), &there) != 0 || !same_file(mine, there)) {
        ::close(f);
        continue;
      }
      lock_byte(f, F_SETLK, 1);  // for naming only; see above
      if (!fresh && ::ftruncate(f, 0) != 0) {
        const int err = errno;
        ::close(f);
        throw output_error(kind::failed, part.string() + ": cannot take over the stale file: " + os_error(err));
      }
      ::fcntl(f, F_SETFL, ::fcntl(f, F_GETFL) & ~O_NONBLOCK);
      fd = f;
      part_st = mine;
      slot = register_part(part);
      return;
    }
    throw output_error(kind::busy, part.string() + " keeps changing: another writer is working on " + shown());
  }

  void release() noexcept {
    unregister_part(slot);
    slot = -1;
    os.reset();
    buf.reset();
    if (fd >= 0) ::close(fd);
    fd = -1;
    done = true;
  }

  void remove_part() noexcept {
    struct stat there {};
    if (::lstat(part.c_str(), &there) == 0 && same_file(there, part_st)) ::unlink(part.c_str());
  }
};

output_file::output_file(const fs::path& requested, const output_rules& rules) : p_(std::make_unique<impl>()) {
  p_->requested = requested;
  p_->rules = rules;
  if (const int n = linked_descriptor(requested); n >= 0) {
    if (!rules.stream_ok)
      throw output_error(kind::refused, requested.string() + " is a descriptor of this process, not a file of its own; "
                                        "this output is written under a temporary name and renamed: name a file");
    const int f = ::fcntl(n, F_DUPFD_CLOEXEC, 3);
    if (f < 0) throw output_error(kind::failed, requested.string() + ": " + os_error(errno));
    p_->streaming = true;
    p_->target = p_->part = requested;
    p_->fd = f;
    return;
  }
  const resolved r = resolve(requested, rules);
  p_->target = r.target;
  if (r.what == found::stream) {
    p_->streaming = true;
    p_->part = r.target;
    const int f = ::open(r.target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (f < 0) throw output_error(kind::failed, requested.string() + ": cannot open it: " + os_error(errno));
    struct stat st {};
    if (::fstat(f, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
      ::close(f);
      throw output_error(kind::refused, requested.string() + " changed while being opened; name a file");
    }
    p_->fd = f;
    return;
  }
  if (r.what == found::regular && !rules.force)
    throw output_error(kind::exists, p_->shown() + " exists; refusing to overwrite it (use --force)");
  if (r.what == found::regular && held_by_writer(r.target))
    throw output_error(kind::busy, p_->shown() + " is the temporary file of a writer still at work; not replaced");
  // The path as the user gave it when it leads there without a link (messages then name the
  // file as the user did: out.h5.part, not /home/.../out.h5.part); the resolved one otherwise.
  std::error_code ec;
  if (fs::absolute(requested, ec).lexically_normal() == p_->target && !ec) p_->target = requested;
  p_->part = p_->target;
  p_->part += ".part";
  p_->claim_part();
}

output_file::~output_file() {
  if (p_) abandon();
}
output_file::output_file(output_file&&) noexcept = default;
output_file& output_file::operator=(output_file&& o) noexcept {
  if (this != &o) {
    if (p_) abandon();
    p_ = std::move(o.p_);
  }
  return *this;
}

bool output_file::streaming() const { return p_->streaming; }
const fs::path& output_file::requested() const { return p_->requested; }
const fs::path& output_file::target() const { return p_->target; }
const fs::path& output_file::write_path() const { return p_->part; }

std::ostream& output_file::stream() {
  if (!p_->os) {
    p_->buf = std::make_unique<fd_buf>(p_->fd);
    p_->os = std::make_unique<std::ostream>(p_->buf.get());
  }
  return *p_->os;
}

void output_file::commit() {
  impl& w = *p_;
  if (w.done) throw std::logic_error(w.requested.string() + ": output already committed or abandoned");
  if (w.os) {
    w.os->flush();
    if (!*w.os) {
      const int err = w.buf->error();
      const std::string what = w.part.string() + ": cannot write it: " + os_error(err ? err : EIO);
      abandon();
      throw output_error(kind::failed, what);
    }
  }
  if (w.streaming) {
    const int rc = ::close(w.fd);
    const int err = errno;
    w.fd = -1;
    w.release();
    if (rc != 0 && err != EINTR) throw output_error(kind::failed, w.requested.string() + ": cannot write it: " + os_error(err));
    return;
  }
  auto fail = [&](kind k, const std::string& what) {
    abandon();
    throw output_error(k, what);
  };
  // Judge the target again: it may have changed since the claim.
  struct stat st {};
  if (::lstat(w.target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      fail(kind::refused, w.shown() + " became " + std::string(type_name(st.st_mode)) +
                              " while being written; not replaced");
    if (!w.rules.force)
      fail(kind::exists, w.shown() + " was created by someone else while being written; not replaced (use --force)");
    if (held_by_writer(w.target))
      fail(kind::busy, w.shown() + " is the temporary file of a writer still at work; not replaced");
  }
  if (w.rules.force) {
    if (::rename(w.part.c_str(), w.target.c_str()) != 0)
      fail(kind::failed, w.part.string() + ": cannot rename it to " + w.target.string() + ": " + os_error(errno));
  } else {
    // Publish only if the target is still absent.
    if (::renameat2(AT_FDCWD, w.part.c_str(), AT_FDCWD, w.target.c_str(), RENAME_NOREPLACE) != 0) {
      const int err = errno;
      if (err == EEXIST)
        fail(kind::exists, w.shown() + " was created by someone else while being written; not replaced (use --force)");
      if (err != EINVAL && err != ENOSYS)
        fail(kind::failed, w.part.string() + ": cannot rename it to " + w.target.string() + ": " + os_error(err));
      // A file system without RENAME_NOREPLACE: a hard link fails on an existing name too.
      if (::link(w.part.c_str(), w.target.c_str()) != 0) {
        const int lerr = errno;
        if (lerr == EEXIST)
          fail(kind::exists, w.shown() + " was created by someone else while being written; not replaced (use --force)");
        fail(kind::failed, w.part.string() + ": cannot rename it to " + w.target.string() + ": " + os_error(lerr));
      }
      ::unlink(w.part.c_str());
    }
  }
  w.release();  // the lock goes only now, after the rename
}

void output_file::abandon() noexcept {
  impl& w = *p_;
  if (w.done) return;
  if (!w.streaming) w.remove_part();
  w.release();
}

bool remove_stale_part(const fs::path& part) {
  const int f = ::open(part.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (f < 0) {
    if (errno == ENOENT) return true;
    std::error_code ec;  // not a writer's file (a link, say): not ours to keep either
    fs::remove(part, ec);
    return !ec;
  }
  bool removed = false;
  if (lock_byte(f, F_OFD_SETLK, 0)) {
    struct stat mine {}, there {};
    if (::fstat(f, &mine) == 0 && ::lstat(part.c_str(), &there) == 0 && same_file(mine, there)) ::unlink(part.c_str());
    removed = true;
  }
  ::close(f);
  return removed;
}

void remove_parts_signal_safe() noexcept {
  for (auto& s : slots)
    if (s.state.load() == 2) ::unlink(s.path);
}

namespace {
extern "C" void on_fatal_signal(int sig) {
  remove_parts_signal_safe();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  sigprocmask(SIG_UNBLOCK, &one, nullptr);
  raise(sig);
}
}  // namespace

void install_cleanup_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    // nohup's SIGHUP, or an ignored SIGPIPE, stays ignored. (SIGINT and SIGQUIT are caught
    // even when ignored: a shell starts background jobs so, and `kill -INT` must still stop one.)
    if (old.sa_handler == SIG_IGN && (sig == SIGHUP || sig == SIGPIPE)) continue;
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&sa.sa_mask, s);
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace ptsim::postproc
