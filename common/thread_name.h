// Names the calling thread, as `top -H`, `ps -L`, gdb and /proc/PID/task/TID/comm show
// it, so a user can tell a worker's map thread from its shuffle senders. Linux keeps 15
// characters; longer names are cut. Best effort: a failure is ignored.
#pragma once

namespace mr {

void SetThreadName(const char* name);

}  // namespace mr
