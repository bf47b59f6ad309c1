// Headless Chromium for the page tests: find the binary, run it with the flags
// this closed network needs, count substrings of the DOM it dumps.
#pragma once

#include <cstddef>
#include <string>

namespace mr::webtest {

// Path of chromium (or chromium-browser, google-chrome); "" if none.
std::string FindChromium();
// Runs chromium headless with `args` (bounded by `timeout 90`); returns stdout.
std::string RunChromium(const std::string& chromium, const std::string& profile, const std::string& args);
size_t Count(const std::string& s, const std::string& needle);

}  // namespace mr::webtest
