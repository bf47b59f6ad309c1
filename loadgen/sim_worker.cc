#include "loadgen/sim_worker.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include <asio/connect.hpp>
#include <asio/post.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>

#include "common/clock.h"
#include "common/framing.h"
#include "common/version.h"

namespace mr::loadgen {

namespace {
// The largest reply a simulated worker reads (the master sends at most 4 MiB).
constexpr uint32_t kMaxReplyFrameBytes = 16u << 20;

std::chrono::steady_clock::duration Seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(std::max(0.0, s)));
}
}  // namespace

SimWorker::SimWorker(asio::io_context& io, SimWorkerOptions options, SharedCounters* counters)
    : io_(io), options_(std::move(options)), counters_(counters), socket_(io), timer_(io), tasks_(options_.tasks) {}

void SimWorker::Start(double delay_seconds) { Retry(delay_seconds); }

void SimWorker::Stop() {
  asio::post(io_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->generation_++;
    asio::error_code ec;
    self->timer_.cancel();
    self->socket_.close(ec);
  });
}

double SimWorker::MasterNow() const { return SystemClock::Get()->Now() + clock_offset_; }

void SimWorker::Retry(double seconds) {
  if (stopped_) return;
  const uint64_t gen = generation_;
  timer_.expires_after(Seconds(seconds));
  timer_.async_wait([self = shared_from_this(), gen](asio::error_code ec) {
    if (ec || self->stopped_ || gen != self->generation_) return;
    self->Connect();
  });
}

void SimWorker::Lost(const Status& why) {
  if (stopped_) return;
  generation_++;
  asio::error_code ec;
  socket_.close(ec);
  timer_.cancel();
  in_call_ = false;
  const bool was_registered = registered_;
  if (registered_) {
    held_ = tasks_.Void();  // as a real worker's VoidRegistration
    registered_ = false;
  }
  {
    std::lock_guard lock(counters_->mu);
    if (was_registered) {
      counters_->c.losses++;
      counters_->c.registered_now--;
    } else {
      counters_->c.connect_failures++;
    }
    if (why.code() == StatusCode::kProtocolError || why.code() == StatusCode::kPermissionDenied) {
      counters_->c.fatal = why.ToString();
    }
  }
  if (why.code() == StatusCode::kProtocolError || why.code() == StatusCode::kPermissionDenied) {
    stopped_ = true;  // refused: retrying cannot help (as MasterLink gives up)
    return;
  }
  // A registered worker reconnects at once; a failed connect waits 200 ms (MasterLink).
  Retry(was_registered ? 0 : 0.2);
}

void SimWorker::Call(const proto::Envelope& request, Callback done) {
  in_call_ = true;
  out_ = EncodeFrame(request.SerializeAsString());
  const uint64_t gen = generation_;
  auto self = shared_from_this();
  auto fail = [self, gen](const std::string& what, asio::error_code ec) {
    if (gen != self->generation_) return;
    self->Lost(Status::NetworkError(what + ": " + ec.message()));
  };
  asio::async_write(socket_, asio::buffer(out_), [self, gen, fail, done](asio::error_code ec, size_t) {
    if (gen != self->generation_) return;
    if (ec) return fail("write", ec);
    asio::async_read(self->socket_, asio::buffer(self->header_), [self, gen, fail, done](asio::error_code ec, size_t) {
      if (gen != self->generation_) return;
      if (ec) return fail("read", ec);
      const uint32_t len = DecodeFrameLength(self->header_);
      if (len > kMaxReplyFrameBytes) return self->Lost(Status::NetworkError("oversized reply"));
      self->body_.resize(len);
      asio::async_read(self->socket_, asio::buffer(self->body_), [self, gen, fail, done](asio::error_code ec, size_t) {
        if (gen != self->generation_) return;
        if (ec) return fail("read", ec);
        self->in_call_ = false;
        proto::Envelope reply;
        if (!reply.ParseFromString(self->body_)) return self->Lost(Status::NetworkError("malformed reply"));
        if (reply.has_error()) {
          return self->Lost(Status::ProtocolError("master error: " + reply.error().message()));
        }
        done(std::move(reply));
      });
    });
  });
}

void SimWorker::Connect() {
  if (stopped_) return;
  socket_ = asio::ip::tcp::socket(io_);
  const uint64_t gen = generation_;
  socket_.async_connect(options_.master, [self = shared_from_this(), gen](asio::error_code ec) {
    if (gen != self->generation_ || self->stopped_) return;
    if (ec) return self->Lost(Status::NetworkError("connect: " + ec.message()));
    self->socket_.set_option(asio::ip::tcp::no_delay(true), ec);
    proto::Envelope hello;
    hello.mutable_hello()->set_protocol_version(kProtocolVersion);
    hello.mutable_hello()->set_role("worker");
    hello.mutable_hello()->set_software(kSoftwareVersion);
    const double t0 = SystemClock::Get()->Now();
    self->Call(hello, [self, t0](Result<proto::Envelope> r) {
      const proto::HelloReply& h = r->hello_reply();
      if (!r->has_hello_reply() || !h.accepted()) {
        return self->Lost(Status::ProtocolError("master refused the handshake: " + h.error()));
      }
      if (h.auth_required()) {
        return self->Lost(Status::PermissionDenied(
            "the master requires a cluster token; mr loadgen speaks without one (start the master without "
            "--token-file)"));
      }
      self->clock_offset_ = h.master_time() - (t0 + SystemClock::Get()->Now()) / 2;
      self->Register();
    });
  });
}

void SimWorker::Register() {
  proto::Envelope req;
  proto::RegisterWorker* r = req.mutable_register_worker();
  r->set_host(options_.host);
  r->set_shuffle_port(options_.shuffle_port);
  r->set_map_slots(options_.tasks.map_slots);
  r->set_reduce_slots(options_.tasks.reduce_slots);
  r->set_unified_slots(options_.tasks.unified_slots);
  r->set_speed(1);
  r->set_work_dir(options_.work_dir);
  r->set_pid(static_cast<uint32_t>(getpid()));
  if (!options_.name.empty()) {
    proto::WorkerLabel* l = r->add_labels();
    l->set_key("name");
    l->set_value(options_.name);
  }
  for (const auto& h : held_) *r->add_held_outputs() = h;
  Call(req, [self = shared_from_this()](Result<proto::Envelope> reply) {
    if (!reply->has_register_reply()) return self->Lost(Status::ProtocolError("master did not answer the registration"));
    const proto::RegisterReply& rr = reply->register_reply();
    self->held_.clear();
    self->worker_id_ = rr.worker_id();
    self->heartbeat_ms_ = std::max(10u, rr.heartbeat_ms());
    self->registered_ = true;
    self->tasks_.ApplyRegistration(rr);
    {
      std::lock_guard lock(self->counters_->mu);
      self->counters_->c.registrations++;
      self->counters_->c.registered_now++;
      if (!self->ever_registered_) self->counters_->c.first_registrations++;
      self->counters_->c.last_registration = MonotonicSeconds();
    }
    self->ever_registered_ = true;
    self->Heartbeat();  // at once, as MasterLink's loop does after connecting
  });
}

void SimWorker::Heartbeat() {
  if (stopped_ || in_call_) return;
  tasks_.Finish(MasterNow());
  proto::Envelope req;
  proto::Heartbeat* hb = req.mutable_heartbeat();
  hb->set_worker_id(worker_id_);
  tasks_.Fill(hb, MasterNow());
  const double sent = MonotonicSeconds();
  next_heartbeat_ = sent + heartbeat_ms_ / 1000.0;
  Call(req, [self = shared_from_this(), sent](Result<proto::Envelope> reply) {
    const double got = MonotonicSeconds();
    if (!reply->has_heartbeat_reply()) return self->Lost(Status::ProtocolError("master sent no heartbeat reply"));
    const proto::HeartbeatReply& r = reply->heartbeat_reply();
    {
      std::lock_guard lock(self->counters_->mu);
      self->counters_->c.heartbeats++;
      self->counters_->c.reply_us.Add((got - sent) * 1e6);
      self->counters_->c.assignments += r.assignments_size();
      if (r.assignments_size() > 0 && got > self->counters_->c.mark) {
        self->counters_->c.first_assignment_after_mark = std::min(self->counters_->c.first_assignment_after_mark, got);
      }
    }
    if (r.reregister()) return self->Lost(Status::NetworkError("the master asked to register again"));
    if (r.heartbeat_ms() > 0) self->heartbeat_ms_ = std::max(10u, r.heartbeat_ms());
    const bool urgent = self->tasks_.Apply(r, self->MasterNow());
    self->PublishTaskCounts();
    self->Arm(urgent);
  });
}

void SimWorker::PublishTaskCounts() {
  const SimTaskCounts& now = tasks_.counts();
  std::lock_guard lock(counters_->mu);
  SimTaskCounts& c = counters_->c.tasks;
  c.maps_started += now.maps_started - published_.maps_started;
  c.maps_succeeded += now.maps_succeeded - published_.maps_succeeded;
  c.reduces_placed += now.reduces_placed - published_.reduces_placed;
  c.reduces_started += now.reduces_started - published_.reduces_started;
  c.reduces_succeeded += now.reduces_succeeded - published_.reduces_succeeded;
  c.reduces_failed += now.reduces_failed - published_.reduces_failed;
  c.killed += now.killed - published_.killed;
  c.fetches += now.fetches - published_.fetches;
  published_ = now;
}

// The next heartbeat: now if urgent, else at the interval or when an attempt ends,
// whichever is first (a finished attempt heartbeats at once, as SlotRunner's on_finished).
void SimWorker::Arm(bool now) {
  if (stopped_) return;
  if (now) return Heartbeat();
  const double until_end = tasks_.NextEnd() - MasterNow();
  const double wait = std::min(next_heartbeat_ - MonotonicSeconds(), until_end);
  const uint64_t gen = generation_;
  timer_.expires_after(Seconds(wait));
  timer_.async_wait([self = shared_from_this(), gen](asio::error_code ec) {
    if (ec || gen != self->generation_ || self->stopped_) return;
    self->OnTimer();
  });
}

void SimWorker::OnTimer() {
  const bool ended = tasks_.Finish(MasterNow());
  if (ended || MonotonicSeconds() >= next_heartbeat_) {
    PublishTaskCounts();
    return Heartbeat();
  }
  Arm(false);
}

}  // namespace mr::loadgen
