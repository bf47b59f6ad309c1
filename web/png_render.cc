#include "web/png_render.h"

#ifdef MR_HAVE_RSVG
#include <cairo.h>
#include <librsvg/rsvg.h>

#include <cmath>
#include <memory>
#endif

namespace mr::web {

#ifdef MR_HAVE_RSVG

namespace {

struct GObjectUnref {
  void operator()(RsvgHandle* h) const { g_object_unref(h); }
};
struct SurfaceDestroy {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct CairoDestroy {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

}  // namespace

bool PngSupported() { return true; }

Status SvgToPng(std::string_view svg, const std::string& path, double scale) {
  GError* err = nullptr;
  std::unique_ptr<RsvgHandle, GObjectUnref> handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &err));
  if (!handle) {
    std::string msg = err != nullptr ? err->message : "unknown error";
    if (err != nullptr) g_error_free(err);
    return Status::InvalidArgument("cannot parse SVG: " + msg);
  }
  gdouble w = 0, h = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &w, &h) || w <= 0 || h <= 0) {
    return Status::InvalidArgument("SVG has no intrinsic size");
  }
  int pw = static_cast<int>(std::ceil(w * scale)), ph = static_cast<int>(std::ceil(h * scale));
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph));
  std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(surface.get()));
  RsvgRectangle viewport{0, 0, static_cast<double>(pw), static_cast<double>(ph)};
  if (!rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &err)) {
    std::string msg = err != nullptr ? err->message : "unknown error";
    if (err != nullptr) g_error_free(err);
    return Status::Internal("cannot render SVG: " + msg);
  }
  cairo_surface_flush(surface.get());
  if (cairo_surface_write_to_png(surface.get(), path.c_str()) != CAIRO_STATUS_SUCCESS) {
    return Status::IoError("cannot write PNG '" + path + "'");
  }
  return Status::Ok();
}

#else

bool PngSupported() { return false; }

Status SvgToPng(std::string_view, const std::string&, double) {
  return Status::FailedPrecondition(
      "PNG output needs librsvg and cairo, and this mr was built without them "
      "(run scripts/install-deps.sh and rebuild, or write .svg)");
}

#endif

}  // namespace mr::web
