// Writes the seed corpora of the fuzz targets: `make_seeds DIR` fills DIR/frame_decoder and
// DIR/master_messages with well-formed inputs the fuzzer mutates from (a worker's life,
// a client's submit, a job run to its end by reports). Used by scripts/fuzz.sh.
#include <cstdio>
#include <string>
#include <vector>

#include "common/file_util.h"
#include "common/framing.h"
#include "common/version.h"
#include "mr.pb.h"

namespace {

using mr::proto::Envelope;

Envelope Hello(const std::string& role) {
  Envelope e;
  e.mutable_hello()->set_protocol_version(mr::kProtocolVersion);
  e.mutable_hello()->set_role(role);
  e.mutable_hello()->set_software(mr::kSoftwareVersion);
  return e;
}

Envelope Register(uint32_t maps, uint32_t reduces) {
  Envelope e;
  auto* r = e.mutable_register_worker();
  r->set_host("127.0.0.1");
  r->set_shuffle_port(40000);
  r->set_map_slots(maps);
  r->set_reduce_slots(reduces);
  r->set_speed(1);
  r->set_work_dir("/tmp/w");
  return e;
}

Envelope Submit(const std::string& job, uint32_t maps, uint32_t reducers) {
  Envelope e;
  auto* s = e.mutable_submit()->mutable_spec();
  s->set_job(job);
  if (maps == 0) s->add_inputs("/in0");
  s->set_num_maps(maps);
  s->set_output("/out");
  s->set_reducers(reducers);
  s->set_split_bytes(4096);
  s->set_slow_start(0.5);
  s->set_weight(1);
  return e;
}

Envelope Report(uint32_t worker, mr::proto::TaskKind kind, uint32_t index,
                mr::proto::TaskState state, uint32_t reducers) {
  Envelope e;
  auto* hb = e.mutable_heartbeat();
  hb->set_worker_id(worker);
  auto* r = hb->add_reports();
  r->set_job_id(1);
  r->set_kind(kind);
  r->set_index(index);
  r->set_attempt(1);
  r->set_state(state);
  r->set_start_time(1.7e9);
  r->set_end_time(1.7e9 + 1);
  for (uint32_t p = 0; p < reducers && kind == mr::proto::MAP; ++p) r->add_partition_bytes(100);
  r->set_maps_fetched(kind == mr::proto::REDUCE ? 3 : 0);
  auto* c = r->add_counters();
  c->set_name("map.records_in");
  c->set_value(3);
  return e;
}

Envelope Fetch(uint32_t worker, uint32_t map, bool ok) {
  Envelope e;
  auto* hb = e.mutable_heartbeat();
  hb->set_worker_id(worker);
  auto* f = hb->add_fetches();
  f->set_job_id(1);
  f->set_map_index(map);
  f->set_src_worker(worker);
  f->set_ok(ok);
  f->set_map_attempt(1);
  f->set_start_time(1.7e9);
  f->set_end_time(1.7e9 + 1);
  if (!ok) f->set_error("connection refused");
  return e;
}

Envelope Heartbeat(uint32_t worker) {
  Envelope e;
  e.mutable_heartbeat()->set_worker_id(worker);
  return e;
}

bool Write(const std::string& path, char policy, const std::vector<Envelope>& msgs) {
  std::string bytes(1, policy);
  for (const auto& m : msgs) mr::AppendFrame(m.SerializeAsString(), &bytes);
  return mr::WriteStringToFile(path, bytes).ok();
}

bool MasterSeeds(const std::string& dir) {
  using mr::proto::MAP;
  using mr::proto::REDUCE;
  bool ok =
      Write(dir + "/worker", 0, {Hello("worker"), Register(2, 1), Heartbeat(1), Heartbeat(1)});
  Envelope status;
  status.mutable_status()->set_job_id(1);
  ok &= Write(dir + "/client", 1, {Hello("client"), Submit("wordcount", 0, 2), status});
  std::vector<Envelope> life = {Hello("client"), Submit("synthetic", 3, 2), Hello("worker"),
                                Register(3, 2), Heartbeat(1)};
  for (uint32_t m = 0; m < 3; ++m) life.push_back(Report(1, MAP, m, mr::proto::SUCCEEDED, 2));
  life.push_back(Fetch(1, 0, true));
  life.push_back(Fetch(1, 1, false));
  life.push_back(Report(1, REDUCE, 0, mr::proto::READY, 2));
  life.push_back(Heartbeat(1));
  life.push_back(Report(1, REDUCE, 0, mr::proto::SUCCEEDED, 2));
  life.push_back(Report(1, REDUCE, 1, mr::proto::FAILED, 2));
  ok &= Write(dir + "/job_life", 2, life);
  // A client waiting on a job (parked: answered by the deferred reply) and killing it.
  Envelope wait;
  wait.mutable_wait_job()->set_job_id(1);
  wait.mutable_wait_job()->set_timeout_ms(1000);
  Envelope kill;
  kill.mutable_kill_job()->set_job_id(1);
  Envelope progress = Report(1, MAP, 0, mr::proto::RUNNING, 2);
  progress.mutable_heartbeat()->mutable_reports(0)->set_progress(0.5);
  ok &= Write(dir + "/wait_kill", 4,
              {Hello("client"), Submit("synthetic", 2, 2), wait, Hello("worker"), Register(2, 1), Heartbeat(1),
               progress, Hello("client"), kill, wait, status});
  ok &= Write(dir + "/sort", 3,
              {Hello("client"), Submit("sort", 0, 3), status, Hello("worker"), Register(1, 1),
               Heartbeat(1), Report(1, MAP, 0, mr::proto::FAILED, 3)});
  return ok;
}

bool FrameSeeds(const std::string& dir) {
  std::string framed =
      mr::EncodeFrame("hello") + mr::EncodeFrame("") + mr::EncodeFrame(std::string(300, 'x'));
  std::string one(1, '\x00');
  one += '\x40';  // max 1 KiB
  for (size_t p = 0; p < framed.size(); p += 7) {
    std::string chunk = framed.substr(p, 7);
    one += static_cast<char>(chunk.size());
    one += chunk;
  }
  std::string over = std::string("\x00\x01", 2) + '\x08' + mr::EncodeFrame(std::string(4, 'y'));
  over += '\x04';
  over += std::string("\x00\x00\x10\x00", 4);  // a 4 KiB header with max 16 bytes
  return mr::WriteStringToFile(dir + "/chunks", one).ok() &&
         mr::WriteStringToFile(dir + "/oversized", over).ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds DIR\n");
    return 2;
  }
  std::string dir = argv[1];
  bool ok = mr::MakeDirs(dir + "/frame_decoder").ok() &&
            mr::MakeDirs(dir + "/master_messages").ok() && FrameSeeds(dir + "/frame_decoder") &&
            MasterSeeds(dir + "/master_messages");
  if (!ok) std::fprintf(stderr, "make_seeds: cannot write seeds under %s\n", dir.c_str());
  return ok ? 0 : 1;
}
