// libFuzzer target: hostile connections to the master. The input is one policy byte and
// then a byte stream of frames, as on the wire. Each frame is parsed as an Envelope and
// goes to the master's own RequestHandler, as from its TCP session: the Hello checks,
// PeerGate::Check (the master's field validation), then a JobTracker with no store on a
// virtual clock. A Hello after the handshake starts a new connection to the same tracker,
// so one input can submit a job as a client and report on it as a worker. No input may crash, hang, or make the
// tracker throw (e.g. a trace line that is not valid JSON).
#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "master/job_tracker.h"
#include "master/request_handler.h"
#include "mr.pb.h"
#include "scheduler/scheduler.h"

namespace mr::master {
namespace {

// Bigger jobs are legal but slow to plan and schedule; the fuzzer looks for crashes.
constexpr uint32_t kMaxFuzzTasks = 64;

struct Sandbox {
  TempDir dir{"mr-fuzz-master"};
  std::vector<std::string> inputs;
  Sandbox() {
    const char* texts[] = {"b a c\na b\n", "alpha beta\ngamma\n", ""};
    for (int i = 0; i < 3; ++i) {
      inputs.push_back(JoinPath(dir.path(), "in" + std::to_string(i) + ".txt"));
      (void)WriteStringToFile(inputs.back(), texts[i]);
    }
    Reset();
  }
  // Only jobs write files (traces, outputs): cleaning after inputs without one keeps the
  // run fast (directory operations dominate otherwise).
  void Reset() const {
    (void)RemoveAll(state());
    (void)RemoveAll(outs());
    (void)MakeDirs(JoinPath(state(), "traces"));
    (void)MakeDirs(outs());
  }
  std::string state() const { return JoinPath(dir.path(), "state"); }
  std::string outs() const { return JoinPath(dir.path(), "outs"); }
};

Sandbox& GetSandbox() {
  static Sandbox sandbox;
  return sandbox;
}

// Paths from the fuzzer would make the tracker read and create files anywhere: keep its
// shape, move it into the sandbox.
std::optional<proto::JobSpec> Sandboxed(const proto::JobSpec& in, int serial) {
  if (in.reducers() > kMaxFuzzTasks || in.num_maps() > kMaxFuzzTasks) return std::nullopt;
  if (in.split_bytes() < 4) return std::nullopt;
  proto::JobSpec spec = in;
  const Sandbox& box = GetSandbox();
  for (int i = 0; i < spec.inputs_size(); ++i) {
    spec.set_inputs(i, box.inputs[spec.inputs(i).size() % box.inputs.size()]);
  }
  spec.set_output(JoinPath(box.outs(), "o" + std::to_string(serial)));
  return spec;
}

// One input's connection, through the master's own RequestHandler. Submitted specs are
// sandboxed first; a Hello after the handshake starts a new connection.
struct Fuzzed {
  RequestHandler handler;
  std::optional<PeerConnection> conn;
  bool closed = false;
  int serial = 0;
};

void Dispatch(const proto::Envelope& in, JobTracker& tracker, Fuzzed& f) {
  if (in.has_hello() || !f.conn) f.conn.emplace("fuzz");  // a new connection (the previous one ends)
  proto::Envelope msg = in;
  if (f.conn->ready() && in.has_submit()) {
    auto spec = Sandboxed(in.submit().spec(), f.serial);
    if (!spec) return;
    ++f.serial;
    *msg.mutable_submit()->mutable_spec() = std::move(*spec);
  }
  HandlerOutcome out = f.handler.Handle(*f.conn, msg);
  if (out.park_job != 0) (void)f.handler.JobStatusReply(out.park_job);  // the deferred answer
  if (out.deferred) out.deferred([](const proto::Envelope&) {});  // a later answer, here at once
  if (out.close) f.closed = true;
  if (f.conn->ready() && in.has_status()) (void)tracker.ApiGet("/api/jobs");
}

void RunOne(const uint8_t* data, size_t size) {
  Sandbox& box = GetSandbox();
  auto policies = sched::KnownPolicies();
  std::string policy = policies[data[0] % policies.size()];
  auto scheduler = sched::CreateScheduler(policy);
  if (!scheduler.ok()) return;
  ManualClock clock(1.7e9);
  JobTracker tracker(&clock, std::move(scheduler).value(), policy, box.state(), nullptr,
                     TrackerOptions{});
  Fuzzed f{RequestHandler(&tracker, RequestHandlerOptions{}), std::nullopt, false, 0};
  // Frame by frame, with the Session's limits: a frame over the limit ends the connection.
  for (size_t p = 1; !f.closed && size - p >= kFrameHeaderBytes;) {
    uint32_t len = DecodeFrameLength(data + p);
    uint32_t limit = f.conn ? f.conn->max_frame_bytes() : kMaxHandshakeFrameBytes;
    if (len > limit || size - p - kFrameHeaderBytes < len) break;
    proto::Envelope in;
    if (!in.ParseFromArray(data + p + kFrameHeaderBytes, static_cast<int>(len))) break;
    p += kFrameHeaderBytes + len;
    Dispatch(in, tracker, f);
    clock.Advance(0.5);
    tracker.Tick();  // lost workers: 10 s of virtual silence
  }
  if (f.serial > 0) box.Reset();
}

}  // namespace
}  // namespace mr::master

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // logging every registration would dominate the run time
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 1) mr::master::RunOne(data, size);
  return 0;
}
