// TraceQueue: the thread that writes the master's job traces, so the state thread does not.
//
// The state thread buffers each job's typed events (TraceWriter) and, once per scheduling
// round, hands the batch here with Append: a move of the events, no formatting, no I/O. The
// queue's one writer thread turns them into JSON lines (trace::AppendEventJson, into one
// buffer it reuses) and appends them to the job's file. The contract:
//   - Order: items are written in the order they were queued (one writer, FIFO), so each
//     file gets its events in the order the state thread traced them; a Remove of a file
//     comes after every Append queued before it.
//   - Bounded, never dropping: the queue holds at most max_events events. An Append that
//     would pass the bound waits until the writer has made room (back-pressure on the state
//     thread); each such wait is counted (stats().full_waits, full_wait_seconds). A batch
//     larger than the bound is taken once everything before it is written.
//   - Tickets: every Append/Remove returns a ticket, increasing; WaitWritten(ticket) returns
//     once that item and every earlier one is written (or failed: a write error is logged
//     and counted, never fatal, as the inline writer's). Whoever reads a trace file for the
//     state thread (the job's seal, `mr logs`' attempts, the status page's chart) waits for
//     the ticket the state thread last issued, so it reads every line traced before.
//   - Folds: an Append may name the job's fold (trace/event_fold.h); the writer thread hands
//     it each event, in order, before formatting it. So a fold has seen every event up to a
//     ticket once WaitWritten(ticket) returns (the job's seal reads its ARIA profile there,
//     master/job_seal.h, instead of parsing the file).
//   - Shutdown: Close() (and the destructor) writes everything queued, then joins. A master
//     killed with SIGKILL loses what is queued and not written, as it lost a round's buffer.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trace/event.h"
#include "trace/event_fold.h"

namespace mr::master {

class TraceQueue {
 public:
  struct Options {
    size_t max_events = size_t{1} << 16;
    // Tests only: runs on the writer thread before each item is written (to hold it).
    std::function<void()> before_write;
  };
  struct Stats {
    uint64_t events_written = 0;
    uint64_t writes = 0;        // file appends (one per run of consecutive items per file)
    uint64_t write_errors = 0;
    uint64_t full_waits = 0;    // Appends that waited for room
    uint64_t waiting = 0;       // Appends waiting for room now
    double full_wait_seconds = 0;
  };

  TraceQueue() : TraceQueue(Options{}) {}
  explicit TraceQueue(Options options);
  ~TraceQueue();
  TraceQueue(const TraceQueue&) = delete;
  TraceQueue& operator=(const TraceQueue&) = delete;

  // Queues events to be appended to path as JSON lines, each handed to `fold` (if any)
  // first. Empty batches queue nothing and return the last ticket.
  uint64_t Append(std::string path, std::vector<trace::Event> events, std::shared_ptr<trace::EventFold> fold = nullptr);
  // Queues the removal of path (after everything queued before it).
  uint64_t Remove(std::string path);
  // The ticket of the last item queued (0: none yet).
  uint64_t LastTicket() const;
  // Blocks until every item up to ticket is written.
  void WaitWritten(uint64_t ticket) const;
  // Writes everything queued, then stops the writer; later Appends are written inline.
  void Close();
  Stats stats() const;

 private:
  struct Item {
    uint64_t ticket = 0;
    std::string path;
    std::vector<trace::Event> events;
    std::shared_ptr<trace::EventFold> fold;
    bool remove = false;
  };
  uint64_t Push(Item item);
  void Run();
  void Write(std::vector<Item>& items);

  const Options options_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;  // queue changed, written_ moved, or closing
  std::deque<Item> queue_;
  size_t queued_events_ = 0;
  uint64_t last_ticket_ = 0;
  uint64_t written_ = 0;
  bool closing_ = false;
  bool closed_ = false;
  Stats stats_;
  // Write's line buffer, kept between batches: only the writer thread uses it (and, once it
  // has joined, Push under the lock).
  std::string text_;
  std::thread thread_;
};

}  // namespace mr::master
