// Escaping text for HTML, SVG and XML: one function for the status pages (web/) and the
// YARN configuration files (yarn/).
#pragma once

#include <string>
#include <string_view>

namespace mr {

// Escapes &, <, >, " and ' (as &#39;), so the result is safe in element text and in single-
// or double-quoted attribute values of HTML and XML alike.
std::string MarkupEscape(std::string_view text);

}  // namespace mr
