// FakeProvider: a StatusProvider serving one canned job (id 1) from a trace,
// for the status-page tests; sample traces to feed it. Thread-safe (read-only
// after construction).
#pragma once

#include <string>
#include <vector>

#include "master/status_provider.h"
#include "trace/event.h"

namespace mr::webtest {

// A small hand-built trace of job-000001 on 2 workers (times from t0 = 1000):
// maps m-00000..m-00003, reducers r-00000 (w1) and r-00001 (w2), six fetches.
std::vector<trace::Event> HandBuiltTrace();

// The real 3-worker word count trace in tests/web/data (needs $MR_SOURCE_DIR
// or the compiled-in source dir).
std::vector<trace::Event> RealTrace();

class FakeProvider : public master::StatusProvider {
 public:
  // `state` is the job's state ("SUCCEEDED", "RUNNING").
  explicit FakeProvider(std::vector<trace::Event> trace, std::string state = "SUCCEEDED");
  Result<std::string> Get(std::string_view api_path) override;

 private:
  std::string job_;  // the /api/jobs/1 document
  std::vector<trace::Event> trace_;
};

}  // namespace mr::webtest
