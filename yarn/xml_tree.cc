#include "yarn/xml_tree.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <charconv>
#include <memory>


namespace mr::yarn {
namespace {

std::string Trim(std::string s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::string Str(const xmlChar* s) { return s == nullptr ? "" : reinterpret_cast<const char*>(s); }

XmlElement Convert(xmlNode* node) {
  XmlElement e;
  e.name = Str(node->name);
  e.line = static_cast<int>(xmlGetLineNo(node));
  for (xmlAttr* a = node->properties; a != nullptr; a = a->next) {
    xmlChar* v = xmlNodeListGetString(node->doc, a->children, 1);
    e.attributes.emplace_back(Str(a->name), Str(v));
    xmlFree(v);
  }
  std::string text;
  for (xmlNode* c = node->children; c != nullptr; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) {
      e.children.push_back(Convert(c));
    } else if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
      text += Str(c->content);
    }
  }
  e.text = Trim(std::move(text));
  return e;
}

}  // namespace

const std::string* XmlElement::Attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<XmlElement> ParseXml(std::string_view text, const std::string& source) {
  std::unique_ptr<xmlParserCtxt, void (*)(xmlParserCtxtPtr)> ctxt(xmlNewParserCtxt(), xmlFreeParserCtxt);
  if (!ctxt) return Status::Internal(source + ": cannot create an XML parser");
  // No network, no DTD loading, no entity substitution, no messages on stderr.
  const int flags = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOBLANKS;
  std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> doc(
      xmlCtxtReadMemory(ctxt.get(), text.data(), static_cast<int>(text.size()), source.c_str(), nullptr, flags),
      xmlFreeDoc);
  if (!doc) {
    const xmlError* err = xmlCtxtGetLastError(ctxt.get());
    std::string what = err != nullptr && err->message != nullptr ? Trim(err->message) : "not well-formed XML";
    int line = err != nullptr ? err->line : 0;
    return Status::InvalidArgument(source + ":" + std::to_string(line) + ": " + what);
  }
  xmlNode* root = xmlDocGetRootElement(doc.get());
  if (root == nullptr) return Status::InvalidArgument(source + ": no root element");
  return Convert(root);
}

std::string ShortestNumber(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

}  // namespace mr::yarn
