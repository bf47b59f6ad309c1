#include "master/trace_writer.h"

#include "common/file_util.h"

namespace mr::master {

void TraceWriter::Append(const nlohmann::json& event) {
  pending_ += event.dump();
  pending_ += '\n';
}

Status TraceWriter::Flush() {
  if (pending_.empty()) return Status::Ok();
  Status s = AppendToFile(path_, pending_);
  pending_.clear();
  return s;
}

}  // namespace mr::master
