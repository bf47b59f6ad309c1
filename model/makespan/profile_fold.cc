#include "model/makespan/profile_fold.h"

#include <algorithm>

#include "model/makespan/profile_extract.h"
#include "trace/attempts.h"

namespace mr::model {

uint64_t ProfileFold::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

void ProfileFold::Add(const trace::Event& event) {
  std::lock_guard lock(mu_);
  ++events_;
  if (!job_ && !trace::JobOf(event).empty()) job_ = trace::JobOf(event);
  if (const auto* s = std::get_if<trace::JobSubmit>(&event)) {
    submit_ = *s;
  } else if (const auto* e = std::get_if<trace::JobEnd>(&event)) {
    end_ = trace::JobEnd{.t = e->t, .job = e->job, .status = e->status};
  } else if (const auto* a = std::get_if<trace::AttemptStart>(&event)) {
    auto key = std::make_pair(a->task.value_or(""), a->attempt.value_or(0));
    if (!ended_.contains(key)) started_[key] = *a;
  } else if (const auto* a = std::get_if<trace::AttemptEnd>(&event)) {
    auto key = std::make_pair(a->task.value_or(""), a->attempt.value_or(0));
    started_.erase(key);
    // What ExtractProfile reads of an end; its counters and messages stay in the file.
    ended_[key] = Ended{.at = events_,
                        .end = trace::AttemptEnd{.t = a->t,
                                                 .job = a->job,
                                                 .task = a->task,
                                                 .attempt = a->attempt,
                                                 .start = a->start,
                                                 .bytes_in = a->bytes_in,
                                                 .bytes_out = a->bytes_out,
                                                 .status = a->status}};
  } else if (const auto* f = std::get_if<trace::FetchEnd>(&event)) {
    std::optional<trace::TaskRef> ref = trace::ParseTaskId(f->task.value_or(""));
    if (!ref || ref->kind != 'r' || f->status.value_or("") != "ok") return;
    auto [it, fresh] = ready_.try_emplace(ref->index);
    if (fresh || f->t > it->second.t) it->second = trace::FetchEnd{.t = f->t, .job = f->job, .task = f->task, .status = f->status};
  }
}

Result<JobProfile> ProfileFold::Profile() const {
  std::vector<trace::Event> events;
  std::unique_lock lock(mu_);
  events.reserve(3 + ended_.size() + started_.size() + ready_.size());
  // First, an event ExtractProfile reads nothing but the job of: the trace's first job id.
  if (job_) events.emplace_back(trace::Share{.t = 0, .job = *job_});
  if (submit_) events.emplace_back(*submit_);
  std::vector<const Ended*> ends;
  ends.reserve(ended_.size());
  for (const auto& [key, e] : ended_) ends.push_back(&e);
  std::sort(ends.begin(), ends.end(), [](const Ended* a, const Ended* b) { return a->at < b->at; });
  for (const Ended* e : ends) events.emplace_back(e->end);
  for (const auto& [key, s] : started_) events.emplace_back(s);
  for (const auto& [index, f] : ready_) events.emplace_back(f);
  if (end_) events.emplace_back(*end_);
  lock.unlock();
  return ExtractProfile(events);
}

}  // namespace mr::model
