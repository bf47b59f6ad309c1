// `hadoop fs` on this machine's files (docs/streaming.md, "mr hadoop fs"): the subcommands a
// Streaming client such as mrjob uses, on local paths and hdfs:// names (hdfs_paths.h):
// -mkdir [-p], -put / -copyFromLocal, -ls [-R] (HDFS's listing: permissions, replication,
// owner, group, size, date, path), -cat, -du [-s], -rm [-r|-R] [-f] [-skipTrash], -rmr,
// -touchz, -get / -copyToLocal, -test -e|-d|-f|-z. Any other subcommand or option is
// refused by name. Output to `out`, messages to `err`, as Hadoop words them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace mr::hadoop {

// Exit statuses: 0 done; 1 a path failed (Hadoop's -1 becomes 1, as the shell sees 255 as
// an error too); 2 a usage error (unknown subcommand or option).
int RunFs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace mr::hadoop
