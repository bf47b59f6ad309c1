#include "web/png_render.h"

#ifdef MR_HAVE_RSVG
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>

#include <cmath>
#include <memory>
#include <mutex>
#endif

namespace mr::web {

#ifdef MR_HAVE_RSVG

namespace {

// librsvg and cairo pull in ~45 shared libraries (glib, pango, fontconfig, X11, ...).
// Linking them would make every mr process — master, each worker, every client call —
// load and relocate them at start-up for a feature only `mr trace render --out X.png`
// uses, so they are opened on first use instead. The headers still give the exact
// prototypes: each pointer has the type of the function it stands for.
struct RsvgApi {
  decltype(&rsvg_handle_new_from_data) new_from_data = nullptr;
  decltype(&rsvg_handle_get_intrinsic_size_in_pixels) intrinsic_size = nullptr;
  decltype(&rsvg_handle_render_document) render_document = nullptr;
  decltype(&g_object_unref) object_unref = nullptr;
  decltype(&g_error_free) error_free = nullptr;
  decltype(&cairo_image_surface_create) image_surface_create = nullptr;
  decltype(&cairo_create) create = nullptr;
  decltype(&cairo_surface_flush) surface_flush = nullptr;
  decltype(&cairo_surface_write_to_png) write_to_png = nullptr;
  decltype(&cairo_destroy) destroy = nullptr;
  decltype(&cairo_surface_destroy) surface_destroy = nullptr;
  std::string error;  // why loading failed; empty when every symbol was found
};

template <typename Fn>
bool Resolve(void* lib, const char* name, Fn* fn, std::string* error) {
  *fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (*fn == nullptr && error->empty()) *error = std::string("symbol ") + name + " not found";
  return *fn != nullptr;
}

// Loaded once per process and never unloaded (glib does not support unloading).
const RsvgApi& Api() {
  static const RsvgApi api = [] {
    RsvgApi a;
    const char* sonames[] = {"librsvg-2.so.2", "libcairo.so.2", "libgobject-2.0.so.0", "libglib-2.0.so.0"};
    void* libs[4] = {};
    for (int i = 0; i < 4; ++i) {
      libs[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
      if (libs[i] == nullptr) {
        const char* why = dlerror();
        a.error = std::string("cannot load ") + sonames[i] + ": " + (why != nullptr ? why : "unknown error");
        return a;
      }
    }
    Resolve(libs[0], "rsvg_handle_new_from_data", &a.new_from_data, &a.error);
    Resolve(libs[0], "rsvg_handle_get_intrinsic_size_in_pixels", &a.intrinsic_size, &a.error);
    Resolve(libs[0], "rsvg_handle_render_document", &a.render_document, &a.error);
    Resolve(libs[1], "cairo_image_surface_create", &a.image_surface_create, &a.error);
    Resolve(libs[1], "cairo_create", &a.create, &a.error);
    Resolve(libs[1], "cairo_surface_flush", &a.surface_flush, &a.error);
    Resolve(libs[1], "cairo_surface_write_to_png", &a.write_to_png, &a.error);
    Resolve(libs[1], "cairo_destroy", &a.destroy, &a.error);
    Resolve(libs[1], "cairo_surface_destroy", &a.surface_destroy, &a.error);
    Resolve(libs[2], "g_object_unref", &a.object_unref, &a.error);
    Resolve(libs[3], "g_error_free", &a.error_free, &a.error);
    return a;
  }();
  return api;
}

std::string TakeMessage(const RsvgApi& api, GError* err) {
  std::string msg = err != nullptr ? err->message : "unknown error";
  if (err != nullptr) api.error_free(err);
  return msg;
}

}  // namespace

bool PngSupported() { return Api().error.empty(); }

Status SvgToPng(std::string_view svg, const std::string& path, double scale) {
  const RsvgApi& api = Api();
  if (!api.error.empty()) {
    return Status::FailedPrecondition("PNG output needs librsvg and cairo at run time (" + api.error +
                                      "; run scripts/install-deps.sh, or write .svg)");
  }
  auto unref = [&api](RsvgHandle* h) { api.object_unref(h); };
  auto surface_destroy = [&api](cairo_surface_t* s) { api.surface_destroy(s); };
  auto cairo_destroy_fn = [&api](cairo_t* c) { api.destroy(c); };

  GError* err = nullptr;
  std::unique_ptr<RsvgHandle, decltype(unref)> handle(
      api.new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &err), unref);
  if (!handle) return Status::InvalidArgument("cannot parse SVG: " + TakeMessage(api, err));
  gdouble w = 0, h = 0;
  if (!api.intrinsic_size(handle.get(), &w, &h) || w <= 0 || h <= 0) {
    return Status::InvalidArgument("SVG has no intrinsic size");
  }
  int pw = static_cast<int>(std::ceil(w * scale)), ph = static_cast<int>(std::ceil(h * scale));
  std::unique_ptr<cairo_surface_t, decltype(surface_destroy)> surface(
      api.image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph), surface_destroy);
  std::unique_ptr<cairo_t, decltype(cairo_destroy_fn)> cr(api.create(surface.get()), cairo_destroy_fn);
  RsvgRectangle viewport{0, 0, static_cast<double>(pw), static_cast<double>(ph)};
  if (!api.render_document(handle.get(), cr.get(), &viewport, &err)) {
    return Status::Internal("cannot render SVG: " + TakeMessage(api, err));
  }
  api.surface_flush(surface.get());
  if (api.write_to_png(surface.get(), path.c_str()) != CAIRO_STATUS_SUCCESS) {
    return Status::IoError("cannot write PNG '" + path + "'");
  }
  return Status::Ok();
}

#else

bool PngSupported() { return false; }

Status SvgToPng(std::string_view, const std::string&, double) {
  return Status::FailedPrecondition(
      "PNG output needs librsvg and cairo, and this mr was built without their headers "
      "(run scripts/install-deps.sh and rebuild, or write .svg)");
}

#endif

}  // namespace mr::web
