// `mr trace render TRACE --out FILE.svg|.png`: draws a job trace as the status
// page's Gantt chart with the shuffle rate underneath.
#include <fstream>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "web/chart_layout.h"
#include "web/png_render.h"
#include "web/svg_chart.h"
#include "trace/reader.h"

namespace mr::cli {

namespace {

const char kTraceUsage[] =
    "mr trace render TRACE --out FILE.svg|FILE.png [--width PIXELS]\n\n"
    "  TRACE is a job trace (JSON lines): OUTPUT/_trace.jsonl of a finished job, or\n"
    "  STATE/traces/job-NNNNNN.jsonl of a running one. .png needs librsvg (see docs/web.md).";

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::IoError("cannot write '" + path + "'");
  out << text;
  out.close();
  if (!out) return Status::IoError("cannot write '" + path + "'");
  return Status::Ok();
}

}  // namespace

int TraceRenderMain(const Args& args) {
  po::options_description desc("trace render options");
  desc.add_options()
      ("trace", po::value<std::string>()->required(), "the trace file (JSON lines)")
      ("out", po::value<std::string>()->required(), "output file, .svg or .png")
      ("width", po::value<int>()->default_value(1200), "image width in pixels");
  po::positional_options_description pos;
  pos.add("trace", 1);
  po::variables_map vm;
  if (auto rc = ParseFlags(args, desc, vm, UsageLine(kTraceUsage, &pos))) return *rc;
  std::string out = vm["out"].as<std::string>();
  bool png = EndsWith(out, ".png");
  if (!png && !EndsWith(out, ".svg")) return Fail(ErrorPrefix(args), Status::InvalidArgument("--out must end in .svg or .png"), kExitUsage);
  int width = vm["width"].as<int>();
  if (width < 300 || width > 20000) return Fail(ErrorPrefix(args), Status::InvalidArgument("--width must be in 300..20000"), kExitUsage);

  auto events = trace::ReadTraceFile(vm["trace"].as<std::string>());
  if (!events.ok()) return Fail(ErrorPrefix(args), Status::InvalidArgument(events.status().message()), kExitUsage);
  if (events->empty()) return Fail(ErrorPrefix(args), Status::InvalidArgument("'" + vm["trace"].as<std::string>() + "' has no events"), kExitUsage);
  web::SvgOptions opt;
  opt.width = width;
  std::string svg = web::RenderSvgChart(web::BuildChartLayout(*events), opt);
  Status st = png ? web::SvgToPng(svg, out) : WriteFile(out, svg);
  if (!st.ok()) return Fail(ErrorPrefix(args), Status::InvalidArgument(st.message()), kExitUsage);
  return kExitOk;
}

}  // namespace mr::cli
