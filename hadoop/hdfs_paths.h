// Hadoop's file names on a machine without HDFS (docs/streaming.md, "Paths"): `hdfs:///a/b`
// and `hdfs://HOST:PORT/a/b` name ROOT/a/b, where ROOT is $MR_HDFS_ROOT (default
// $HOME/.mrlab/hdfs); `file:///a` names /a; a name without a scheme is a local path as it is.
// Other schemes (s3://, gs://, ...) are refused by name. Pure functions of the environment.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::hadoop {

// The local root behind hdfs:// names, absolute, without a trailing '/'.
std::string HdfsRoot();

// The local path a Hadoop file name stands for. InvalidArgument for an unsupported scheme.
Result<std::string> LocalPath(std::string_view name);

}  // namespace mr::hadoop
