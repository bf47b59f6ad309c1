#include "common/thread_name.h"

#include <pthread.h>

#include <cstring>
#include <string>

namespace mr {

void SetThreadName(const char* name) {
  std::string cut(name, ::strnlen(name, 15));
  (void)::pthread_setname_np(::pthread_self(), cut.c_str());
}

}  // namespace mr
