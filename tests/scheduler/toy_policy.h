// A policy that is not built in: "toylifo", registered into the policy table by the test
// binaries that link toy_policy.cc (scheduler_test, model_test) before main runs. It
// shows that adding a policy needs no test edit: the generic policy tests iterate the
// table (policy_params.h) and so run on it too; toy_policy_test.cc checks they did.
#pragma once

namespace mr::sched::testing {

// The toy's table name: latest arrival first, otherwise a plain policy (default traits).
inline constexpr const char* kToyPolicy = "toylifo";

}  // namespace mr::sched::testing
