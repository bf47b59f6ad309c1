#include "master/trace_writer.h"

#include "common/file_util.h"
#include "trace/writer.h"

namespace mr::master {

Status TraceWriter::Flush() {
  if (pending_.empty()) return Status::Ok();
  if (queue_ != nullptr) {
    ticket_ = queue_->Append(path_, std::move(pending_), fold_);
    pending_.clear();
    return Status::Ok();
  }
  std::string text;
  for (const trace::Event& e : pending_) {
    if (fold_) fold_->Add(e);
    trace::AppendEventJson(e, text);
    text += '\n';
  }
  pending_.clear();
  return AppendToFile(path_, text);
}

}  // namespace mr::master
