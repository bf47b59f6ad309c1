#include "master/trace_queue.h"

#include <utility>

#include "common/clock.h"
#include "common/file_util.h"
#include "common/log.h"
#include "common/thread_name.h"
#include "trace/writer.h"

namespace mr::master {

TraceQueue::TraceQueue(Options options) : options_(std::move(options)) {
  thread_ = std::thread([this] { Run(); });
}

TraceQueue::~TraceQueue() { Close(); }

uint64_t TraceQueue::Append(std::string path, std::vector<trace::Event> events,
                            std::shared_ptr<trace::EventFold> fold) {
  if (events.empty()) return LastTicket();
  return Push(Item{.path = std::move(path), .events = std::move(events), .fold = std::move(fold), .remove = false});
}

uint64_t TraceQueue::Remove(std::string path) { return Push(Item{.path = std::move(path), .events = {}, .fold = nullptr, .remove = true}); }

uint64_t TraceQueue::Push(Item item) {
  std::unique_lock lock(mu_);
  if (closed_) {  // no writer any more: written here, in order (nothing else is queued)
    item.ticket = ++last_ticket_;
    std::vector<Item> one;
    one.push_back(std::move(item));
    Write(one);  // under the lock: the writes after Close stay in order
    written_ = last_ticket_;
    cv_.notify_all();
    return written_;
  }
  const size_t n = item.events.size();
  auto has_room = [&] { return queued_events_ == 0 || queued_events_ + n <= options_.max_events; };
  if (!has_room()) {
    const double start = MonotonicSeconds();
    stats_.waiting++;
    cv_.wait(lock, has_room);
    stats_.waiting--;
    stats_.full_waits++;
    stats_.full_wait_seconds += MonotonicSeconds() - start;
  }
  item.ticket = ++last_ticket_;
  queued_events_ += n;
  queue_.push_back(std::move(item));
  cv_.notify_all();
  return last_ticket_;
}

uint64_t TraceQueue::LastTicket() const {
  std::lock_guard lock(mu_);
  return last_ticket_;
}

void TraceQueue::WaitWritten(uint64_t ticket) const {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return written_ >= ticket; });
}

void TraceQueue::Close() {
  {
    std::lock_guard lock(mu_);
    if (closing_) return;
    closing_ = true;
    cv_.notify_all();
  }
  thread_.join();
  std::lock_guard lock(mu_);
  closed_ = true;
}

TraceQueue::Stats TraceQueue::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

// Takes everything queued at once, writes it outside the lock, then publishes the tickets.
void TraceQueue::Run() {
  SetThreadName("mr-trace");
  std::vector<Item> batch;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing, and everything is written
      batch.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
      queue_.clear();
    }
    size_t events = 0;
    for (const Item& item : batch) events += item.events.size();
    Write(batch);
    std::lock_guard lock(mu_);
    queued_events_ -= events;
    written_ = batch.back().ticket;
    batch.clear();
    cv_.notify_all();
  }
}

// Consecutive items of one file become one append; a removal ends the run.
void TraceQueue::Write(std::vector<Item>& items) {
  std::string& text = text_;
  uint64_t events = 0, writes = 0, errors = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    Item& item = items[i];
    if (options_.before_write) options_.before_write();
    if (item.remove) {
      (void)RemoveAll(item.path);
      continue;
    }
    for (const trace::Event& e : item.events) {
      if (item.fold) item.fold->Add(e);
      trace::AppendEventJson(e, text);
      text += '\n';
    }
    events += item.events.size();
    std::vector<trace::Event>().swap(item.events);
    item.fold.reset();
    if (i + 1 < items.size() && !items[i + 1].remove && items[i + 1].path == item.path) continue;
    Status s = AppendToFile(item.path, text);
    text.clear();
    writes++;
    if (!s.ok()) {
      errors++;
      MR_LOG_WARN("trace: {}", s.ToString());
    }
  }
  if (text.capacity() > (size_t{1} << 22)) std::string().swap(text);  // a rare huge batch's buffer goes
  // Stats under the lock; Write itself runs without it on the writer thread.
  auto count = [&] {
    stats_.events_written += events;
    stats_.writes += writes;
    stats_.write_errors += errors;
  };
  if (closed_) {
    count();  // Push holds the lock
  } else {
    std::lock_guard lock(mu_);
    count();
  }
}

}  // namespace mr::master
