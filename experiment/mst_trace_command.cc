#include "experiment/mst_trace_command.h"

#include "experiment/mst_trace_output.h"

namespace mr::experiment {

Status RunMstTraceCommand(const MstTraceOptions& o, std::ostream& out) {
  MR_ASSIGN_OR_RETURN(MstTraceReport report, ReadMstTrace(o.traces));
  if (o.json) {
    out << MstTraceJson(report).dump(2) << "\n";
  } else {
    WriteMstTraceText(report, out);
  }
  return Status::Ok();
}

}  // namespace mr::experiment
