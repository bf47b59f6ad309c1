// A parsed XML document as plain structs (element name, attributes, text, children), so
// that no header outside this file's source sees libxml2. Read with libxml2 with the
// network and external entities off: a configuration file is data, never a fetch.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace mr::yarn {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;  // the element's own text nodes, concatenated, trimmed
  std::vector<XmlElement> children;
  int line = 0;  // where it starts in the file, for messages

  // The attribute `key`'s value, or nullptr.
  const std::string* Attribute(std::string_view key) const;
};

// The document's root element. InvalidArgument "SOURCE:LINE: what libxml2 said" for text
// that is not well-formed XML.
Result<XmlElement> ParseXml(std::string_view text, const std::string& source);

// The shortest decimal that reads back as `v` ("2", "0.5", "33.3333").
std::string ShortestNumber(double v);

}  // namespace mr::yarn
