#include "master/trace_writer.h"

#include "common/file_util.h"
#include "trace/writer.h"

namespace mr::master {

void TraceWriter::Append(const trace::Event& event) {
  pending_ += trace::EventJson(event);
  pending_ += '\n';
}

Status TraceWriter::Flush() {
  if (pending_.empty()) return Status::Ok();
  Status s = AppendToFile(path_, pending_);
  pending_.clear();
  return s;
}

}  // namespace mr::master
