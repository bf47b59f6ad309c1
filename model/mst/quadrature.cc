#include "model/mst/quadrature.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <string>
#include <vector>

namespace mr::model {
namespace {

// Gauss-Kronrod 7/15 on [-1, 1] (QUADPACK's qk15): the Kronrod abscissae from the outside in,
// the last being 0; the Gauss points are the odd-indexed ones and the centre.
constexpr double kXgk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                            0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                            0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                            0.207784955007898467600689403773245, 0.0};
constexpr double kWgk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                            0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                            0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                            0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
constexpr double kWg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                           0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

struct Piece {
  double a, b;
  bool mapped;  // the tail piece: x in [a, b] within [0, 1), t = base + scale x / (1 - x)
  double value, error;
  bool operator<(const Piece& o) const { return error < o.error; }  // max-heap on error
};

class Integrator {
 public:
  Integrator(const std::function<double(double)>& f, double base, double scale, double power)
      : f_(f), base_(base), scale_(scale), power_(power) {}

  Piece Evaluate(double a, double b, bool mapped) const {
    const double centre = 0.5 * (a + b), half = 0.5 * (b - a);
    const double fc = At(centre, mapped);
    double kronrod = fc * kWgk[7], gauss = fc * kWg[3];
    for (int j = 0; j < 7; ++j) {
      const double dx = half * kXgk[j];
      const double sum = At(centre - dx, mapped) + At(centre + dx, mapped);
      kronrod += kWgk[j] * sum;
      if (j % 2 == 1) gauss += kWg[j / 2] * sum;
    }
    return {a, b, mapped, kronrod * half, std::fabs((kronrod - gauss) * half)};
  }

 private:
  double At(double x, bool mapped) const {
    if (!mapped) return f_(x);
    // 1 - x > 0: Gauss-Kronrod never evaluates the end points. t = base + scale (u^-k - 1).
    const double u = 1.0 - x, stretch = std::pow(u, -power_);
    const double t = base_ + scale_ * (power_ == 1 ? x / u : std::expm1(-power_ * std::log1p(-x)));
    const double weight = scale_ * power_ * stretch / u;
    if (!std::isfinite(t) || !std::isfinite(weight)) return 0.0;  // beyond double range: nothing left
    const double v = f_(t);
    return v == 0 ? 0.0 : v * weight;
  }

  const std::function<double(double)>& f_;
  double base_, scale_, power_;
};

}  // namespace

Result<double> IntegrateSurvival(const std::function<double(double)>& survival,
                                 std::span<const double> breakpoints, double scale,
                                 const QuadratureOptions& options) {
  if (!(std::isfinite(scale) && scale > 0))
    return Status::InvalidArgument("quadrature: tail scale must be finite and > 0");
  if (!(std::isfinite(options.tail_power) && options.tail_power >= 1))
    return Status::InvalidArgument("quadrature: tail_power must be >= 1");
  std::vector<double> cuts;
  for (double b : breakpoints) {
    if (!(std::isfinite(b) && b >= 0))
      return Status::InvalidArgument("quadrature: breakpoints must be finite and >= 0");
    if (b > 0) cuts.push_back(b);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const double base = cuts.empty() ? 0.0 : cuts.back();
  Integrator integrator(survival, base, scale, options.tail_power);
  std::vector<Piece> pieces;  // a max-heap on error
  auto push = [&pieces](Piece p) {
    pieces.push_back(p);
    std::push_heap(pieces.begin(), pieces.end());
  };
  double lo = 0;
  for (double c : cuts) {
    push(integrator.Evaluate(lo, c, false));
    lo = c;
  }
  push(integrator.Evaluate(0.0, 1.0, true));
  // The totals are re-summed from the pieces at each step so that rounding does not drift.
  auto totals = [&pieces] {
    double value = 0, error = 0;
    for (const Piece& p : pieces) value += p.value, error += p.error;
    return std::pair{value, error};
  };
  for (int count = static_cast<int>(pieces.size());; ++count) {
    auto [value, error] = totals();
    if (!std::isfinite(value) || !std::isfinite(error)) {
      return Status::FailedPrecondition("quadrature: the integrand is not finite");
    }
    if (error <= std::max(options.abs_tol, options.rel_tol * std::fabs(value))) return value;
    if (count >= options.max_intervals) {
      return Status::FailedPrecondition("quadrature did not reach its tolerance in " +
                                        std::to_string(options.max_intervals) + " intervals (error " +
                                        std::to_string(error) + " on " + std::to_string(value) + ")");
    }
    std::pop_heap(pieces.begin(), pieces.end());
    const Piece worst = pieces.back();
    pieces.pop_back();
    const double mid = 0.5 * (worst.a + worst.b);
    push(integrator.Evaluate(worst.a, mid, worst.mapped));
    push(integrator.Evaluate(mid, worst.b, worst.mapped));
  }
}

}  // namespace mr::model
