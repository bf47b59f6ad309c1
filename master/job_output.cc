#include "master/job_output.h"

namespace mr::master {

Result<const jobs::OutputStore*> OutputStoreOf(const TrackerOptions& options, const proto::JobSpec& spec) {
  if (spec.output_server().empty()) return options.output_store;
  if (!options.remote_outputs) {
    return Status::FailedPrecondition("this master cannot write output through a data server");
  }
  return options.remote_outputs(spec.output_server());
}

}  // namespace mr::master
