// End to end, with the real ptsim as a process: where outputs may go. --force replaces only a
// regular file; a FIFO, socket, directory or device is refused (or, for text outputs, written
// through), never renamed over; a symbolic link is followed; two writers of one output: one
// wins, and the file is its own; a name never leads outside results/; a signal removes every
// .part a command is writing.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;

namespace {

const std::string exe = PTSIM_BINARY_DIR "/ptsim";
// About 0.1 s of wall time: a short run.
const std::string quick = " --set 'duration=\"0.3 s\"' -q";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

mode_t lmode(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0 ? st.st_mode : 0;
}

bool is_a_fifo(const fs::path& p) { return S_ISFIFO(lmode(p)); }

void make_fifo(const fs::path& p) { REQUIRE(::mkfifo(p.c_str(), 0644) == 0); }

// A listening Unix socket bound at p (kept open for the test's duration).
struct unix_socket {
  int fd = -1;
  explicit unix_socket(const fs::path& p) {
    fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    REQUIRE(p.string().size() < sizeof a.sun_path);
    std::strcpy(a.sun_path, p.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~unix_socket() { ::close(fd); }
};

// Runs a shell command line in dir; stdout and stderr captured.
result sh(const fs::path& dir, const std::string& command) {
  const fs::path out = dir / ".sh-out", err = dir / ".sh-err";
  const std::string cmd = "cd '" + dir.string() + "' && (" + command + ") >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  result r{WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

std::string stored_name(const fs::path& file) { return ptsim::postproc::result_reader(file).metadata().scenario_name; }

// Starts `ptsim ARGS` in dir, output to dir/<log>; returns its pid.
pid_t start(const fs::path& dir, const std::vector<std::string>& args, const std::string& log) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(127);
    const std::string l = (dir / log).string();
    if (!freopen(l.c_str(), "w", stdout) || !freopen(l.c_str(), "a", stderr)) _exit(127);
    std::vector<char*> av{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    execv(exe.c_str(), av.data());
    _exit(127);
  }
  return pid;
}

// Exit code, or 128 + the signal that ended it.
int wait_for(pid_t pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// Waits until pred holds (a generous cap; a test fails only if it never does).
template <typename F>
bool eventually(F pred) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

std::size_t files_in(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) n += !e.is_directory();
  return n;
}

}  // namespace

TEST_CASE("--force never renames over a FIFO, a socket or a directory; a symbolic link to one is refused too") {
  scratch s("paths-special");
  make_fifo(s.dir / "fifo");
  unix_socket sock(s.dir / "sock");
  fs::create_directories(s.dir / "dir");
  fs::create_symlink("fifo", s.dir / "link-to-fifo");
  for (const std::string target : {"fifo", "sock", "dir", "link-to-fifo"}) {
    CAPTURE(target);
    const result r = run_ptsim(s.dir, "run -o " + target + " --force" + quick);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "ptsim run: " + target));
    CHECK(contains(r.err, "not a regular file"));
    if (target == "sock" || target == "dir") {  // (a FIFO would be written through: see below)
      const result f = run_ptsim(s.dir, "floorplan " + default_scenario() + " -o " + target + " --force");
      CHECK(f.exit_code == 2);
      const result t = run_ptsim(s.dir, "trace nothing.h5 -o " + target + " --force");
      CHECK(t.exit_code == 2);
      CHECK(contains(t.err, "not a regular file"));
    }
  }
  CHECK(is_a_fifo(s.dir / "fifo"));
  CHECK(S_ISSOCK(lmode(s.dir / "sock")));
  CHECK(S_ISDIR(lmode(s.dir / "dir")));
  CHECK(S_ISLNK(lmode(s.dir / "link-to-fifo")));
  CHECK(fs::is_empty(s.dir / "dir"));
  for (const auto& e : fs::directory_iterator(s.dir)) CHECK_MESSAGE(e.path().extension() != ".part", e.path());
}

TEST_CASE("a trace is written through a FIFO (a reader gets it) and the FIFO stays a FIFO") {
  scratch s("paths-fifo-trace");
  REQUIRE(run_ptsim(s.dir, "run -o r.h5" + quick).exit_code == 0);
  make_fifo(s.dir / "fifo");
  // The reader, then the writer, in one shell: the FIFO opens when both ends are there.
  const result r = sh(s.dir, "cat fifo > got.json & '" + exe + "' trace r.h5 -o fifo --force; rc=$?; wait; exit $rc");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(is_a_fifo(s.dir / "fifo"));
  const std::string got = slurp(s.dir / "got.json");
  CHECK(contains(got, "\"traceEvents\""));
  CHECK_FALSE(fs::exists(s.dir / "fifo.part"));
}

TEST_CASE("-o /dev/stdout: a trace or floorplan goes through the descriptor (a file the shell opened too); a result is refused") {
  scratch s("paths-stdout");
  REQUIRE(run_ptsim(s.dir, "run -o r.h5" + quick).exit_code == 0);
  // Standard output is a regular file here (the shell's redirection): written through, not
  // "exists", not renamed over.
  const result t = sh(s.dir, "'" + exe + "' trace r.h5 -o /dev/stdout > got.json");
  INFO(t.err);
  CHECK(t.exit_code == 0);
  CHECK(contains(slurp(s.dir / "got.json"), "\"traceEvents\""));
  const result f = sh(s.dir, "'" + exe + "' floorplan " + default_scenario() + " -o /dev/fd/1 | cat > got.flp");
  CHECK(f.exit_code == 0);
  CHECK_FALSE(slurp(s.dir / "got.flp").empty());
  // A link to /proc/self/fd/1: the link stays, the descriptor is written through.
  fs::create_symlink("/proc/self/fd/1", s.dir / "out-link");
  const result l = sh(s.dir, "'" + exe + "' trace r.h5 -o out-link --force > via-link.json");
  CHECK(l.exit_code == 0);
  CHECK(S_ISLNK(lmode(s.dir / "out-link")));
  CHECK(contains(slurp(s.dir / "via-link.json"), "\"traceEvents\""));
  const result r = sh(s.dir, "'" + exe + "' run -o /dev/stdout --force" + quick + " > got.h5");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "/dev/stdout is a descriptor of this process"));
  CHECK(fs::file_size(s.dir / "got.h5") == 0);
}

TEST_CASE("a symbolic link is followed: the link stays, its target is judged by the same rules") {
  scratch s("paths-links");
  REQUIRE(run_ptsim(s.dir, "run -o first.h5 --set name=first" + quick).exit_code == 0);
  fs::create_symlink("first.h5", s.dir / "link.h5");
  // Without --force: the target exists, so nothing is written.
  const result no = run_ptsim(s.dir, "run -o link.h5 --set name=second" + quick);
  CHECK(no.exit_code == 2);
  CHECK(contains(no.err, "exists; refusing to overwrite it (use --force)"));
  CHECK(stored_name(s.dir / "first.h5") == "first");
  // With --force: the target is replaced, the link is still a link to it.
  const result yes = run_ptsim(s.dir, "run -o link.h5 --force --set name=second" + quick);
  INFO(yes.err);
  CHECK(yes.exit_code == 0);
  CHECK(S_ISLNK(lmode(s.dir / "link.h5")));
  CHECK(stored_name(s.dir / "first.h5") == "second");
  // A dangling link: its target is created, the link stays.
  fs::create_symlink("sub/new.h5", s.dir / "dangling.h5");
  fs::create_directories(s.dir / "sub");
  CHECK(run_ptsim(s.dir, "run -o dangling.h5 --set name=third" + quick).exit_code == 0);
  CHECK(S_ISLNK(lmode(s.dir / "dangling.h5")));
  CHECK(stored_name(s.dir / "sub" / "new.h5") == "third");
  // A planted link at the .part name is never written through.
  std::ofstream(s.dir / "victim") << "keep";
  fs::create_symlink("victim", s.dir / "out.h5.part");
  const result planted = run_ptsim(s.dir, "run -o out.h5" + quick);
  CHECK(planted.exit_code == 2);
  CHECK(contains(planted.err, "out.h5.part is a symbolic link"));
  CHECK(slurp(s.dir / "victim") == "keep");
}

TEST_CASE("trace and run --trace obey --force; a refused trace path fails before the run") {
  scratch s("paths-trace-force");
  REQUIRE(run_ptsim(s.dir, "run -o r.h5" + quick).exit_code == 0);
  std::ofstream(s.dir / "t.json") << "keep";
  const result t = run_ptsim(s.dir, "trace r.h5 -o t.json");
  CHECK(t.exit_code == 2);
  CHECK(contains(t.err, "t.json exists; refusing to overwrite it (use --force)"));
  CHECK(slurp(s.dir / "t.json") == "keep");
  const result rt = run_ptsim(s.dir, "run -o r2.h5 --trace t.json" + quick);
  CHECK(rt.exit_code == 2);
  CHECK_FALSE(fs::exists(s.dir / "r2.h5"));  // refused before the run, not after it
  CHECK(slurp(s.dir / "t.json") == "keep");
  CHECK(run_ptsim(s.dir, "trace r.h5 -o t.json --force").exit_code == 0);
  CHECK(contains(slurp(s.dir / "t.json"), "\"traceEvents\""));
}

TEST_CASE("device nodes survive -o and --force (as root only: only root could replace them)") {
  if (geteuid() != 0) return;
  scratch s("paths-devices");
  REQUIRE(run_ptsim(s.dir, "run -o r.h5" + quick).exit_code == 0);
  for (const std::string dev : {"/dev/null", "/dev/full"}) {
    CAPTURE(dev);
    const result r = run_ptsim(s.dir, "run -o " + dev + " --force" + quick);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "is a character device, not a regular file"));
    run_ptsim(s.dir, "trace r.h5 -o " + dev + " --force");  // written through (/dev/full: an error)
    run_ptsim(s.dir, "floorplan " + default_scenario() + " -o " + dev + " --force");
    CHECK(S_ISCHR(lmode(dev)));
    CHECK_FALSE(fs::exists(dev + ".part"));
  }
  const result full = run_ptsim(s.dir, "trace r.h5 -o /dev/full");
  CHECK(full.exit_code != 0);
  CHECK(contains(full.err, "No space left on device"));
  CHECK(run_ptsim(s.dir, "trace r.h5 -o /dev/null").exit_code == 0);
}

TEST_CASE("two writers of one result: the second fails at once naming the first, and the file is the first's run") {
  scratch s("paths-busy");
  const pid_t a = start(s.dir, {"run", "-o", "same.h5", "--set", "name=alpha", "--set", "duration=\"1500 s\"", "-q"}, "a.log");
  REQUIRE(eventually([&] { return fs::exists(s.dir / "same.h5.part"); }));
  // The same target by another spelling: a link to it.
  fs::create_symlink("same.h5", s.dir / "alias.h5");
  for (const std::string out : {"same.h5", "alias.h5"}) {
    const result b = run_ptsim(s.dir, "run -o " + out + " --force --set name=beta" + quick);
    CHECK(b.exit_code == 2);
    CHECK(contains(b.err, "is being written by process " + std::to_string(a)));
  }
  // Naming the first writer's temporary file as an output does not replace it either.
  const result p = run_ptsim(s.dir, "run -o same.h5.part --force --set name=gamma" + quick);
  CHECK(p.exit_code == 2);
  CHECK(contains(p.err, "temporary file of a writer still at work"));
  CHECK(wait_for(a) == 0);
  CHECK(stored_name(s.dir / "same.h5") == "alpha");
  CHECK_FALSE(fs::exists(s.dir / "same.h5.part"));
}

TEST_CASE("two writers started together: exactly one wins, and the file holds the winner's run") {
  scratch s("paths-race");
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    const std::string out = "race" + std::to_string(round) + ".h5";
    const pid_t a = start(s.dir, {"run", "-o", out, "--set", "name=alpha", "--set", "duration=\"20 s\"", "-q"}, "a.log");
    const pid_t b = start(s.dir, {"run", "-o", out, "--set", "name=beta", "--set", "duration=\"20 s\"", "-q"}, "b.log");
    const int ra = wait_for(a), rb = wait_for(b);
    INFO(slurp(s.dir / "a.log") << slurp(s.dir / "b.log"));
    CHECK(((ra == 0) != (rb == 0)));
    CHECK((ra == 0 || ra == 2));
    CHECK((rb == 0 || rb == 2));
    REQUIRE(fs::exists(s.dir / out));
    CHECK(stored_name(s.dir / out) == (ra == 0 ? "alpha" : "beta"));
    CHECK_FALSE(fs::exists(s.dir / (out + ".part")));
  }
}

TEST_CASE("a stale .part (a writer killed with SIGKILL) is taken over") {
  scratch s("paths-stale");
  const pid_t a = start(s.dir, {"run", "-o", "out.h5", "--set", "name=killed", "--set", "duration=\"400 s\"", "-q"}, "a.log");
  REQUIRE(eventually([&] { return fs::exists(s.dir / "out.h5.part"); }));
  kill(a, SIGKILL);
  CHECK(wait_for(a) == 128 + SIGKILL);
  CHECK(fs::exists(s.dir / "out.h5.part"));
  const result r = run_ptsim(s.dir, "run -o out.h5 --set name=next" + quick);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(stored_name(s.dir / "out.h5") == "next");
  CHECK_FALSE(fs::exists(s.dir / "out.h5.part"));
}

TEST_CASE("a name that is a path is refused with its position; nothing is written outside results/") {
  scratch s("paths-names");
  fs::create_directories(s.dir / "a" / "b");
  std::ofstream(s.dir / "a" / "b" / "evil.yaml") << "extends: " << default_scenario() << "\nname: ../../outside\n";
  const result r = run_ptsim(s.dir / "a" / "b", "run evil.yaml -q --set 'duration=\"0.3 s\"'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "evil.yaml:2:7"));
  CHECK(contains(r.err, "'../../outside'"));
  const result set = run_ptsim(s.dir / "a" / "b", "run -q --set name=../../outside2 --set 'duration=\"0.3 s\"'");
  CHECK(set.exit_code == 2);
  CHECK(contains(set.err, "'../../outside2'"));
  std::ofstream(s.dir / "a" / "b" / "sw.yaml") << "name: ../../outside3\nbase: " << default_scenario()
                                               << "\ngrid:\n  policy.governor: [performance]\n";
  const result sw = run_ptsim(s.dir / "a" / "b", "sweep sw.yaml");
  CHECK(sw.exit_code == 2);
  CHECK(contains(sw.err, "sw.yaml:1:7"));
  // Only the two files written here.
  CHECK(files_in(s.dir) == 2);
}

TEST_CASE("every signal that ends a run removes every .part it was writing (result and trace)") {
  scratch s("paths-signals");
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    CAPTURE(sig);
    const pid_t a = start(s.dir, {"run", "-o", "out.h5", "--trace", "t.json", "--set", "duration=\"4000 s\"", "-q"}, "a.log");
    // The trace's .part is claimed before the run; the result's when the run starts writing.
    REQUIRE(eventually([&] { return fs::exists(s.dir / "out.h5.part") && fs::exists(s.dir / "t.json.part"); }));
    kill(a, sig);
    CHECK(wait_for(a) == 128 + sig);
    CHECK_FALSE(fs::exists(s.dir / "out.h5.part"));
    CHECK_FALSE(fs::exists(s.dir / "t.json.part"));
    CHECK_FALSE(fs::exists(s.dir / "out.h5"));
    CHECK_FALSE(fs::exists(s.dir / "t.json"));
  }
}
