// Proto3 `string` fields must hold valid UTF-8: protobuf refuses to parse a
// message that does not, so one Latin-1 file name in an error message would
// make a whole heartbeat unreadable. Text from outside (errors, paths) goes
// through SanitizeUtf8 before it is put in such a field.
#pragma once

#include <string>
#include <string_view>

namespace mr {

// Returns text with every byte that is not part of a valid UTF-8 sequence
// replaced by '?'. Valid input is returned unchanged.
std::string SanitizeUtf8(std::string_view text);

}  // namespace mr
