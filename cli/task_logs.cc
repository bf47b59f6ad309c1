#include "cli/task_logs.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <thread>

#include "common/job_id.h"
#include "common/version.h"
#include "shuffle/net/task_log_client.h"
#include "shuffle/task_log.h"

namespace mr::cli {

namespace {

Result<proto::TaskAttemptsReply> AskAttempts(client::MasterClient& master, const TaskLogsOptions& o) {
  if (!master.HasFeature(kFeatureTaskAttempts)) {
    return Status::ProtocolError("this master cannot say where tasks ran (it predates mr logs)");
  }
  proto::Envelope req;
  req.mutable_task_attempts()->set_job_id(o.job);
  req.mutable_task_attempts()->set_task(o.task);
  MR_ASSIGN_OR_RETURN(proto::Envelope reply, master.Call(req));
  if (!reply.has_task_attempts_reply()) return Status::ProtocolError("unexpected reply to a task attempts request");
  proto::TaskAttemptsReply attempts = std::move(*reply.mutable_task_attempts_reply());
  if (o.attempt) {
    auto* list = attempts.mutable_attempts();
    list->erase(std::remove_if(list->begin(), list->end(),
                               [&](const proto::TaskAttempt& a) { return a.attempt() != *o.attempt; }),
                list->end());
    if (list->empty()) {
      return Status::NotFound("no attempt " + std::to_string(*o.attempt) +
                              (o.task.empty() ? std::string(" of any task") : " of " + o.task) + " in " +
                              JobIdString(o.job));
    }
  }
  if (attempts.attempts_size() == 0) return Status::NotFound("no attempt has started in " + JobIdString(o.job) + " yet");
  return attempts;
}

// "w2 (node-a)": the worker as mr status names it.
std::string WorkerLabel(const proto::TaskAttempt& a) {
  std::string s = "w" + std::to_string(a.worker());
  if (!a.worker_name().empty()) s += " (" + a.worker_name() + ")";
  return s;
}

// Keeps the last `n` lines of what passes through it (a final line without '\n' counts).
class TailLines {
 public:
  explicit TailLines(uint64_t n) : n_(n) {}
  void Add(std::string_view bytes) {
    for (char c : bytes) {
      if (open_) {
        lines_.back().push_back(c);
      } else {
        lines_.emplace_back(1, c);
        open_ = true;
        if (lines_.size() > n_) lines_.pop_front();
      }
      if (c == '\n') open_ = false;
    }
  }
  // Returns whether what it wrote ends a line (true when it wrote nothing).
  bool WriteTo(std::ostream& out) const {
    for (const std::string& l : lines_) out << l;
    return lines_.empty() || lines_.back().back() == '\n';
  }

 private:
  uint64_t n_;
  bool open_ = false;  // the last line has not ended yet
  std::deque<std::string> lines_;
};

// One attempt's log, read on from where the last read stopped.
class LogReader {
 public:
  LogReader(const proto::TaskAttempt& a, const TaskLogsOptions& o) : a_(a), o_(o) {
    req_.set_job_id(o.job);
    req_.set_kind(a.kind());
    req_.set_index(a.index());
    req_.set_attempt(a.attempt());
    req_.set_max_bytes(shuffle::kTaskLogChunkBytes);
  }

  // Writes to `out` (or through `tail`) in kTaskLogChunkBytes pieces what the log holds past
  // the last read, up to its size at the first piece of this call. *line_start: whether
  // what was written to `out` so far ends a line. *grew: whether anything was read.
  Status ReadOn(std::ostream& out, TailLines* tail, bool* line_start, bool* grew) {
    *grew = false;
    if (!client_) {
      MR_ASSIGN_OR_RETURN(client_, shuffle::TaskLogClient::Connect(a_.host(), static_cast<uint16_t>(a_.port()),
                                                                   o_.token, o_.timeout_seconds));
    }
    std::optional<uint64_t> end;
    while (!end || offset_ < *end) {
      req_.set_offset(offset_);
      Result<shuffle::TaskLogPiece> piece = client_->Read(req_);
      if (!piece.ok()) {
        client_.reset();  // a follow's next poll connects again
        return piece.status();
      }
      if (!end) end = piece->log_size;
      if (piece->bytes.empty()) break;
      offset_ += piece->bytes.size();
      *grew = true;
      if (tail != nullptr) {
        tail->Add(piece->bytes);
      } else {
        out.write(piece->bytes.data(), static_cast<std::streamsize>(piece->bytes.size()));
        out.flush();
        *line_start = piece->bytes.back() == '\n';
      }
    }
    return Status::Ok();
  }

 private:
  const proto::TaskAttempt& a_;
  const TaskLogsOptions& o_;
  proto::TaskLogRequest req_;
  std::unique_ptr<shuffle::TaskLogClient> client_;
  uint64_t offset_ = 0;
};

// Whether the master still shows attempt `a` running.
Result<bool> StillRunning(client::MasterClient& master, const TaskLogsOptions& o, const proto::TaskAttempt& a) {
  TaskLogsOptions one = o;
  one.task = a.task();
  one.attempt = a.attempt();
  MR_ASSIGN_OR_RETURN(proto::TaskAttemptsReply now, AskAttempts(master, one));
  return now.attempts_size() > 0 && now.attempts(0).state() == "RUNNING";
}

// Streams one attempt's log: what it holds now (through `tail` if given, then written) and,
// when following a RUNNING attempt, what it gains until the attempt ends.
Status StreamLog(client::MasterClient& master, const proto::TaskAttempt& a, const TaskLogsOptions& o,
                 std::ostream& out, std::optional<TailLines>& tail, bool* line_start) {
  LogReader reader(a, o);
  bool grew = false;
  Status s = reader.ReadOn(out, tail ? &*tail : nullptr, line_start, &grew);
  if (tail) *line_start = tail->WriteTo(out);
  MR_RETURN_IF_ERROR(s);
  if (!o.follow || a.state() != "RUNNING") return Status::Ok();
  for (bool running = true; running;) {
    MR_RETURN_IF_ERROR(reader.ReadOn(out, nullptr, line_start, &grew));
    if (grew) continue;
    MR_ASSIGN_OR_RETURN(running, StillRunning(master, o, a));
    if (running) std::this_thread::sleep_for(std::chrono::duration<double>(o.poll_seconds));
  }
  // It ended: what it wrote last (the worker writes the log before it reports the end).
  return reader.ReadOn(out, nullptr, line_start, &grew);
}

}  // namespace

Result<TaskLogsResult> PrintTaskLogs(client::MasterClient& master, const TaskLogsOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(proto::TaskAttemptsReply attempts, AskAttempts(master, o));
  TaskLogsResult result;
  for (const proto::TaskAttempt& a : attempts.attempts()) {
    ++result.attempts;
    out << "==> " << JobIdString(o.job) << ' ' << a.task() << " attempt " << a.attempt() << " (" << a.state()
        << ") on " << WorkerLabel(a) << " <==\n";
    if (a.port() == 0) {
      ++result.unreadable;
      out << "(worker w" << a.worker() << " is no longer in the cluster: its logs went with it)\n";
      continue;
    }
    std::optional<TailLines> tail;
    if (o.tail) tail.emplace(*o.tail);
    bool line_start = true;
    Status streamed = StreamLog(master, a, o, out, tail, &line_start);
    if (!line_start) out << '\n';  // the next header starts a line of its own
    if (!streamed.ok()) {
      ++result.unreadable;
      out << "(cannot read this log from " << WorkerLabel(a) << ": " << streamed.message() << ")\n";
    }
    out.flush();
  }
  return result;
}

}  // namespace mr::cli
