// Everything a user types on the command line or a lesson link carries: counts ("2^20", "16M"),
// lists ("2^10..2^28"), dimensions ("8x8x4"), lesson actions ("threadlab:set?..."), colour and plot
// names, and lesson parameters merged and read back. Each must answer with a value or an error,
// never crash, hang or read out of bounds.

#include <cstdint>

#include "core/color_scheme.hpp"
#include "core/launch_config.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/lessons/lesson_params.hpp"
#include "core/parse.hpp"
#include "core/plot/plot_quantity.hpp"
#include "fuzz_input.hpp"

namespace {

// A lesson's parameters, of every kind, with an alias: what configure() hands to merge_values.
const tl::lessons::ParamSpec kSpecs[] = {
    {"n", "N", tl::lessons::ParamKind::kCount, "1000", {}, "elements", {}},
    {"grid", "blocks", tl::lessons::ParamKind::kDim3, "auto", {}, "blocks", {}},
    {"block", "threads", tl::lessons::ParamKind::kDim3, "256", {}, "threads", {}},
    {"path", "path", tl::lessons::ParamKind::kChoice, "fused", {"unfused", "fused"}, "path", {}},
    {"inputs", "inputs", tl::lessons::ParamKind::kCount, "64", {}, "inputs", {"in"}},
    {"grid_stride", "loop", tl::lessons::ParamKind::kFlag, "0", {}, "loop", {}},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tl::fuzz::Input input(data, size);
  const std::string a = input.text(64);
  const std::string b = input.text(64);
  const std::string link = input.rest();

  (void)tl::parse_count(a);
  if (auto list = tl::parse_count_list(b)) {
    // A list the parser accepted is one a sweep would run: it must be non-empty and bounded.
    if (list->empty()) __builtin_trap();
  }
  if (auto dims = tl::parse_dim3(a)) {
    const tl::LaunchConfig config{*dims, *dims};
    (void)tl::validate(config, tl::standard_cuda_limits());
  }
  (void)tl::parse_color_by(b);
  (void)tl::plot::parse_plot_quantity(b);
  (void)tl::lessons::is_lesson_action(link);
  if (auto action = tl::lessons::parse_lesson_action(link)) {
    auto merged = tl::lessons::merge_values(kSpecs, tl::lessons::default_values(kSpecs),
                                            action->values, "fuzz");
    if (merged) {
      const tl::lessons::ParamReader reader(kSpecs, *merged);
      (void)reader.count("n");
      (void)reader.count("inputs");
      (void)reader.grid("grid");
      (void)reader.dim3("block");
      (void)reader.choice("path");
      (void)reader.flag("grid_stride");
    }
  }
  return 0;
}
