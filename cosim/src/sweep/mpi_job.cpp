// The MPI side of sweeps (built when MPI is found). See mpi_job.hpp.
#include "mpi_job.hpp"

// The C API only: the deprecated C++ bindings would need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <poll.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

namespace ptsim::cosim::sweep {

namespace {

enum tag : int { tag_request = 1, tag_work = 2, tag_result = 3, tag_end = 4, tag_release = 5, tag_stop = 6 };
constexpr int idle_ms = 5;  // how long a waiting rank sleeps between polls
constexpr std::size_t max_error_chars = 2000;

void nap(int ms, int fd = -1) {
  pollfd p{fd, POLLIN, 0};
  poll(fd >= 0 ? &p : nullptr, fd >= 0 ? 1 : 0, ms);
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Receives and drops a message of any type: one nobody waits for any more.
void discard(const MPI_Status& st) {
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  std::string buf(static_cast<std::size_t>(count > 0 ? count : 1), '\0');
  MPI_Recv(buf.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// "index\tok\twall_s\terror": one small message per ended run.
std::string encode(const run_result& r) {
  char head[96];
  std::snprintf(head, sizeof head, "%zu\t%d\t%.17g\t", r.index, r.ok ? 1 : 0, r.wall_s);
  return head + r.error.substr(0, max_error_chars);
}

run_result decode(const std::string& s) {
  run_result r;
  char* end = nullptr;
  r.index = std::strtoull(s.c_str(), &end, 10);
  r.ok = std::strtol(end + 1, &end, 10) != 0;
  r.wall_s = std::strtod(end + 1, &end);
  r.error = std::string(end + 1);
  return r;
}

class dispatcher final : public work_source {
 public:
  dispatcher(int size, std::vector<std::size_t> to_run, std::function<void(const run_result&, int)> remote)
      : size_(size), to_run_(std::move(to_run)), remote_(std::move(remote)) {}

  std::optional<std::size_t> take() override {
    if (exhausted()) return std::nullopt;
    return to_run_[next_++];
  }
  bool exhausted() const override { return stopped_ || next_ >= to_run_.size(); }
  int service() override {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
      if (!flag) break;
      if (st.MPI_TAG == tag_request) {
        int ask = 0;
        MPI_Recv(&ask, 1, MPI_INT, st.MPI_SOURCE, tag_request, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long long reply = -1;
        if (auto i = take()) reply = static_cast<long long>(*i);
        MPI_Send(&reply, 1, MPI_LONG_LONG, st.MPI_SOURCE, tag_work, MPI_COMM_WORLD);
      } else if (st.MPI_TAG == tag_result) {
        int count = 0;
        MPI_Get_count(&st, MPI_CHAR, &count);
        std::string text(static_cast<std::size_t>(count), '\0');
        MPI_Recv(text.data(), count, MPI_CHAR, st.MPI_SOURCE, tag_result, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (remote_) remote_(decode(text), st.MPI_SOURCE);
      } else if (st.MPI_TAG == tag_end) {
        int n = 0;
        MPI_Recv(&n, 1, MPI_INT, st.MPI_SOURCE, tag_end, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++ended_;
      } else {
        discard(st);
      }
    }
    return ended_ < size_ - 1 ? idle_ms : -1;
  }
  void stop() override {
    if (stopped_) return;
    stopped_ = true;
    int z = 0;
    for (int r = 1; r < size_; ++r) MPI_Send(&z, 1, MPI_INT, r, tag_stop, MPI_COMM_WORLD);
  }
  bool all_ended() const { return ended_ >= size_ - 1; }

 private:
  int size_;
  std::vector<std::size_t> to_run_;
  std::size_t next_ = 0;
  bool stopped_ = false;
  int ended_ = 0;
  std::function<void(const run_result&, int)> remote_;
};

class requester final : public work_source {
 public:
  explicit requester(const signal_watch& signals) : signals_(signals) {}

  std::optional<std::size_t> take() override {
    poll_reply();
    if (ready_) {
      const std::size_t i = *ready_;
      ready_.reset();
      return i;
    }
    if (done_ || stopped_ || pending_) return std::nullopt;
    int ask = 0;
    MPI_Send(&ask, 1, MPI_INT, 0, tag_request, MPI_COMM_WORLD);
    MPI_Irecv(&reply_, 1, MPI_LONG_LONG, 0, tag_work, MPI_COMM_WORLD, &req_);
    pending_ = true;
    poll_reply();
    if (ready_) {
      const std::size_t i = *ready_;
      ready_.reset();
      return i;
    }
    return std::nullopt;
  }
  bool exhausted() const override { return (done_ || stopped_) && !ready_; }
  int service() override {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, tag_stop, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      int z = 0;
      MPI_Recv(&z, 1, MPI_INT, 0, tag_stop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      signals_.request_stop(SIGTERM);
    }
    poll_reply();
    return pending_ ? 1 : -1;
  }
  void finished(const run_result& r) override {
    const std::string text = encode(r);
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, tag_result, MPI_COMM_WORLD);
  }
  void stop() override { stopped_ = true; }
  // Completes a request still in flight, so that no receive is left open at the end.
  void settle() {
    while (pending_) {
      poll_reply();
      if (pending_) nap(1);
    }
  }

 private:
  void poll_reply() {
    if (!pending_) return;
    int flag = 0;
    MPI_Test(&req_, &flag, MPI_STATUS_IGNORE);
    if (!flag) return;
    pending_ = false;
    if (reply_ < 0) done_ = true;
    else if (!stopped_) ready_ = static_cast<std::size_t>(reply_);
  }
  const signal_watch& signals_;
  long long reply_ = -1;
  MPI_Request req_ = MPI_REQUEST_NULL;
  bool pending_ = false, done_ = false, stopped_ = false;
  std::optional<std::size_t> ready_;
};

}  // namespace

bool built_with_mpi() { return true; }

struct mpi_job::impl {
  std::unique_ptr<dispatcher> disp;
  std::unique_ptr<requester> req;
};

mpi_job::mpi_job() : p_(std::make_unique<impl>()) {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

mpi_job::~mpi_job() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

int mpi_job::broadcast(int value) {
  MPI_Request r;
  check(MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &r), "MPI_Ibcast");
  for (int flag = 0;;) {
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    if (flag) return value;
    nap(1);
  }
}

work_source& mpi_job::dispatch(std::vector<std::size_t> to_run, std::function<void(const run_result&, int)> remote) {
  p_->disp = std::make_unique<dispatcher>(size_, std::move(to_run), std::move(remote));
  return *p_->disp;
}

bool mpi_job::wait_for_ranks(const signal_watch& signals, double patience_s) {
  dispatcher& d = *p_->disp;
  std::optional<std::chrono::steady_clock::time_point> since;
  for (;;) {
    d.service();
    if (d.all_ended()) return true;
    if (signals.stop_signal() != 0) {
      d.stop();
      if (!since) since = std::chrono::steady_clock::now();
      if (std::chrono::steady_clock::now() - *since > std::chrono::duration<double>(patience_s)) return false;
    }
    nap(idle_ms, signals.fd());
    signals.drain();
  }
}

void mpi_job::release() {
  int z = 0;
  for (int r = 1; r < size_; ++r) MPI_Send(&z, 1, MPI_INT, r, tag_release, MPI_COMM_WORLD);
}

work_source& mpi_job::request(const signal_watch& signals) {
  p_->req = std::make_unique<requester>(signals);
  return *p_->req;
}

void mpi_job::report_end_and_wait() {
  if (p_->req) p_->req->settle();
  int n = 0;
  MPI_Send(&n, 1, MPI_INT, 0, tag_end, MPI_COMM_WORLD);
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (flag) {
      const bool released = st.MPI_TAG == tag_release;
      discard(st);
      if (released) return;
      continue;
    }
    nap(10);
  }
}

void mpi_job::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace ptsim::cosim::sweep
