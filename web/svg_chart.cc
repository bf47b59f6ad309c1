#include "web/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/units.h"
#include "web/markup.h"

namespace mr::web {

namespace {

const char* Colour(BarKind kind) {
  switch (kind) {
    case BarKind::kMap: return "#4e79a7";
    case BarKind::kReduce: return "#59a14f";
    case BarKind::kFetch: return "#f28e2b";
    case BarKind::kFailed: return "#e15759";
    case BarKind::kKilled: return "#bab0ac";  // grey, hatched (KilledPattern): not a failure
  }
  return "#888888";
}

// A killed attempt's bar: its grey crossed by darker stripes, so that it reads as neither a
// failure (red) nor work done. Defined once per chart (<defs>), used as fill="url(#...)".
constexpr const char* kKilledPatternId = "mr-killed";
std::string KilledPattern() {
  return std::string("<defs><pattern id=\"") + kKilledPatternId +
         "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"6\" height=\"6\" fill=\"" + Colour(BarKind::kKilled) + "\"/>"
         "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#79706e\" stroke-width=\"2.5\"/></pattern></defs>\n";
}

// What a bar of this kind is filled with: its colour, or the killed pattern.
std::string Fill(BarKind kind) {
  if (kind == BarKind::kKilled) return std::string("url(#") + kKilledPatternId + ")";
  return Colour(kind);
}

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks.
double TickStep(double span, int target) {
  if (span <= 0) return 1;
  double raw = span / target;
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

// Seconds since the job's submission, as every time on the job page: "+3.5 s".
std::string TickLabel(double t, double step) {
  int digits = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return "+" + Fixed(t, digits) + " s";
}

class Writer {
 public:
  Writer(const ChartLayout& l, const SvgOptions& o) : l_(l), o_(o) {
    span_ = std::max(l.duration, 1e-3);
    plot_w_ = std::max(100, o.width - o.label_width - 50);  // room for the share scale
    gantt_top_ = 78;
    gantt_h_ = static_cast<int>(l.lanes.size()) * o.lane_height;
    axis_y_ = gantt_top_ + gantt_h_ + 4;
    rate_top_ = axis_y_ + 44;
    height_ = rate_top_ + o.rate_height + 40;
  }

  std::string Render() {
    s_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"mr-chart\" width=\"" << o_.width << "\" height=\""
       << height_ << "\" viewBox=\"0 0 " << o_.width << " " << height_
       << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n";
    s_ << "<rect x=\"0\" y=\"0\" width=\"" << o_.width << "\" height=\"" << height_ << "\" fill=\"#ffffff\"/>\n";
    s_ << KilledPattern();
    Title();
    Legend();
    Lanes();
    Axis(axis_y_, true);
    RatePlot();
    s_ << "</svg>\n";
    return s_.str();
  }

 private:
  double X(double t) const { return o_.label_width + std::clamp(t, 0.0, span_) / span_ * plot_w_; }

  void Title() {
    std::string title = (l_.job.empty() ? "job" : l_.job) + (l_.name.empty() ? "" : " " + l_.name);
    std::string sub = "policy " + (l_.policy.empty() ? "?" : l_.policy) + " · " + l_.status;
    if (l_.response_time >= 0) sub += " · response time " + FormatSeconds(l_.response_time);
    else sub += " · " + FormatSeconds(l_.duration) + " so far";
    if (!l_.error.empty()) sub += " · " + l_.error;
    // The subtitle is one line of the image: a long error is cut (the page prints it whole).
    constexpr size_t kMaxSubtitle = 170;
    if (sub.size() > kMaxSubtitle) {
      size_t cut = kMaxSubtitle;
      while (cut > 0 && (static_cast<unsigned char>(sub[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 char
      sub = sub.substr(0, cut) + "…";
    }
    s_ << "<text class=\"title\" x=\"12\" y=\"24\" font-size=\"17\" font-weight=\"bold\">" << Escape(title)
       << "</text>\n";
    s_ << "<text class=\"subtitle\" x=\"12\" y=\"44\" font-size=\"12\" fill=\"#444444\">" << Escape(sub)
       << "</text>\n";
  }

  // One entry for every kind of mark the chart draws: the five bar kinds, a running
  // (paler) bar, the decision ticks under the axis, the rate area and the share line.
  void Legend() {
    int x = o_.label_width;
    auto entry = [&](const std::string& cls, const std::string& swatch, const std::string& name) {
      s_ << "<g class=\"legend " << cls << "\">" << swatch << "<text x=\"" << x + 16 << "\" y=\"65\">" << name
         << "</text></g>\n";
      x += 30 + static_cast<int>(name.size()) * 7;
    };
    auto box = [&](const char* fill, const char* extra) {
      return "<rect x=\"" + std::to_string(x) + "\" y=\"56\" width=\"12\" height=\"10\" fill=\"" + fill + "\"" +
             extra + "/>";
    };
    for (BarKind k : {BarKind::kMap, BarKind::kReduce, BarKind::kFetch, BarKind::kFailed, BarKind::kKilled}) {
      std::string name(BarKindName(k));
      if (k == BarKind::kFetch) name = "shuffle fetch";
      entry(std::string(BarKindName(k)), box(Fill(k).c_str(), ""), name);
    }
    entry("running", box(Colour(BarKind::kMap), " fill-opacity=\"0.55\""), "running (paler)");
    const std::string mid = std::to_string(x + 6);
    entry("decision",
          "<line x1=\"" + mid + "\" y1=\"57\" x2=\"" + mid + "\" y2=\"65\" stroke=\"#7f3c8d\" stroke-width=\"1.5\"/>",
          "decision (tick below axis)");
    entry("rate", box("#f28e2b", " fill-opacity=\"0.45\" stroke=\"#d0701a\""), "shuffle rate");
    entry("share",
          "<line x1=\"" + std::to_string(x) + "\" y1=\"61\" x2=\"" + std::to_string(x + 12) +
              "\" y2=\"61\" stroke=\"#7f3c8d\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
          "share (dashed, 0..1)");
  }

  void Lanes() {
    if (l_.lanes.empty()) {
      s_ << "<text class=\"empty\" x=\"" << o_.label_width << "\" y=\"" << gantt_top_ + 14
         << "\" fill=\"#666666\">no task attempts or fetches yet</text>\n";
      return;
    }
    std::vector<std::vector<const Bar*>> by_lane(l_.lanes.size());
    for (const Bar& b : l_.bars) by_lane.at(b.lane).push_back(&b);
    for (size_t i = 0; i < l_.lanes.size(); ++i) {
      const Lane& lane = l_.lanes[i];
      int y = gantt_top_ + static_cast<int>(i) * o_.lane_height;
      s_ << "<g class=\"lane " << Escape(lane.slot) << "\" data-lane=\"" << Escape(lane.id) << "\">\n";
      s_ << "<rect class=\"lane-bg\" x=\"" << o_.label_width << "\" y=\"" << y << "\" width=\"" << plot_w_
         << "\" height=\"" << o_.lane_height << "\" fill=\"" << (i % 2 == 0 ? "#f4f6f8" : "#ffffff") << "\"/>\n";
      s_ << "<text class=\"lane-label\" x=\"" << o_.label_width - 6 << "\" y=\"" << y + o_.lane_height - 5
         << "\" text-anchor=\"end\">" << Escape(lane.label) << "</text>\n";
      for (const Bar* b : by_lane[i]) BarRect(*b, y);
      s_ << "</g>\n";
    }
  }

  void BarRect(const Bar& b, int y) {
    double x0 = X(b.start), x1 = std::max(X(b.end), x0 + 1.0);
    int h = o_.lane_height - 4;
    s_ << "<rect class=\"bar " << BarKindName(b.kind) << (b.running ? " running" : "") << "\" x=\"" << Fixed(x0)
       << "\" y=\"" << y + 2 << "\" width=\"" << Fixed(x1 - x0) << "\" height=\"" << h << "\" fill=\""
       << Fill(b.kind) << "\"" << (b.running ? " fill-opacity=\"0.55\"" : "") << " stroke=\"#ffffff\" stroke-width=\"0.5\">"
       << "<title>" << Escape(b.tooltip) << "</title></rect>\n";
    if (x1 - x0 > 6.5 * static_cast<double>(b.label.size()) + 6) {
      s_ << "<text class=\"bar-label\" x=\"" << Fixed(x0 + 3) << "\" y=\"" << y + h - 2
         << "\" fill=\"" << (b.kind == BarKind::kKilled ? "#222222" : "#ffffff")  // dark on the grey stripes
         << "\" font-size=\"10\" pointer-events=\"none\">" << Escape(b.label) << "</text>\n";
    }
  }

  void Axis(int y, bool decisions) {
    double step = TickStep(span_, 10);
    s_ << "<g class=\"axis\">\n<line x1=\"" << o_.label_width << "\" y1=\"" << y << "\" x2=\""
       << o_.label_width + plot_w_ << "\" y2=\"" << y << "\" stroke=\"#333333\"/>\n";
    for (int i = 0; i * step <= span_ + 1e-9; ++i) {
      double t = i * step;
      std::string x = Fixed(X(t));
      s_ << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << x << "\" y2=\"" << y + 4
         << "\" stroke=\"#333333\"/>";
      s_ << "<text x=\"" << x << "\" y=\"" << y + 16 << "\" text-anchor=\"middle\">" << TickLabel(t, step)
         << "</text>\n";
    }
    s_ << "</g>\n";
    if (!decisions) return;
    for (const Decision& d : l_.decisions) {
      std::string x = Fixed(X(d.t));
      std::string tip = "+" + Fixed(d.t, 3) + " s, worker " + std::to_string(d.worker) + ": " + d.note;
      for (const auto& t : d.tasks) tip += "\n" + t;
      s_ << "<line class=\"decision\" x1=\"" << x << "\" y1=\"" << y + 20 << "\" x2=\"" << x << "\" y2=\"" << y + 27
         << "\" stroke=\"#7f3c8d\" stroke-width=\"1.5\"><title>" << Escape(tip) << "</title></line>\n";
    }
  }

  void RatePlot() {
    int top = rate_top_, h = o_.rate_height, bottom = top + h;
    double max_bytes = 0;
    for (double v : l_.rate_bytes) max_bytes = std::max(max_bytes, v);
    double max_rate = l_.bucket_seconds > 0 ? max_bytes / l_.bucket_seconds : 0;
    s_ << "<g class=\"rate\">\n";
    s_ << "<text x=\"" << o_.label_width - 6 << "\" y=\"" << top + 10 << "\" text-anchor=\"end\">"
       << Escape(max_rate > 0 ? FormatBytes(max_rate) + "/s" : "0 B/s") << "</text>\n";
    s_ << "<text x=\"" << o_.label_width - 6 << "\" y=\"" << top + h / 2 + 4
       << "\" text-anchor=\"end\" font-weight=\"bold\">shuffle rate</text>\n";
    s_ << "<text x=\"" << o_.label_width - 6 << "\" y=\"" << bottom << "\" text-anchor=\"end\">0</text>\n";
    s_ << "<rect x=\"" << o_.label_width << "\" y=\"" << top << "\" width=\"" << plot_w_ << "\" height=\"" << h
       << "\" fill=\"#fafafa\" stroke=\"#dddddd\"/>\n";
    if (max_bytes > 0 && !l_.rate_bytes.empty()) {
      std::ostringstream d;
      d << "M" << Fixed(X(0)) << "," << bottom;
      for (size_t i = 0; i < l_.rate_bytes.size(); ++i) {
        double y = bottom - l_.rate_bytes[i] / max_bytes * (h - 4);
        d << " L" << Fixed(X(i * l_.bucket_seconds)) << "," << Fixed(y) << " L"
          << Fixed(X((i + 1) * l_.bucket_seconds)) << "," << Fixed(y);
      }
      d << " L" << Fixed(X(span_)) << "," << bottom << " Z";
      s_ << "<path class=\"rate-area\" d=\"" << d.str() << "\" fill=\"#f28e2b\" fill-opacity=\"0.45\" stroke=\"#d0701a\""
         << " stroke-width=\"1\"><title>shuffle rate, " << Fixed(l_.bucket_seconds * 1000, 1)
         << " ms buckets, peak " << Escape(FormatBytes(max_rate)) << "/s</title></path>\n";
    }
    SharePath(top, h);
    s_ << "</g>\n";
    Axis(bottom, false);
  }

  // The job's shuffle share as a step line on a 0..1 scale over the rate plot.
  void SharePath(int top, int h) {
    if (l_.shares.empty()) return;
    int bottom = top + h;
    auto y = [&](double share) { return Fixed(bottom - std::clamp(share, 0.0, 1.0) * (h - 4)); };
    std::ostringstream d;
    d << "M" << Fixed(X(l_.shares[0].first)) << "," << y(l_.shares[0].second);
    for (size_t i = 1; i < l_.shares.size(); ++i) {
      d << " L" << Fixed(X(l_.shares[i].first)) << "," << y(l_.shares[i - 1].second) << " L"
        << Fixed(X(l_.shares[i].first)) << "," << y(l_.shares[i].second);
    }
    d << " L" << Fixed(X(span_)) << "," << y(l_.shares.back().second);
    s_ << "<path class=\"share\" data-last=\"" << Fixed(l_.shares.back().second) << "\" d=\"" << d.str()
       << "\" fill=\"none\" stroke=\"#7f3c8d\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"><title>the job's shuffle "
          "share (0 at the bottom, 1 at the top)</title></path>\n";
    // The share's own scale on the right (the rate's is on the left): labelled as a scale,
    // so "1" at the top is not read as the share's value.
    s_ << "<text class=\"share-scale\" x=\"" << o_.label_width + plot_w_ + 4 << "\" y=\"" << top + 10
       << "\" fill=\"#7f3c8d\">share 1</text><text class=\"share-scale\" x=\"" << o_.label_width + plot_w_ + 4
       << "\" y=\"" << bottom << "\" fill=\"#7f3c8d\">share 0</text>\n";
  }

  const ChartLayout& l_;
  const SvgOptions& o_;
  std::ostringstream s_;
  double span_;
  int plot_w_, gantt_top_, gantt_h_, axis_y_, rate_top_, height_;
};

}  // namespace

std::string RenderSvgChart(const ChartLayout& layout, const SvgOptions& options) {
  return Writer(layout, options).Render();
}

}  // namespace mr::web
