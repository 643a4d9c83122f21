#include "lab/verdict_summary.hpp"

#include <cstdio>

#include "core/format.hpp"
#include "core/plot/tick_format.hpp"
#include "core/stats.hpp"

namespace tl::lab {
namespace {

std::string ratio_text(double yours_ms, double theirs_ms) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", yours_ms / theirs_ms);
  return std::string("yours takes ") + text + "× as long";
}

// "3 runs, 41.0 ms to 48.3 ms".
std::string runs_text(const TimingStats& stats) {
  return std::to_string(stats.repeats) + " runs, " + format_milliseconds(stats.min_ms) + " to " +
         format_milliseconds(stats.max_ms);
}

// "36 %", "4.2 %", "0.025 %": two significant digits below 10 %, so a small share still reads.
std::string percent_text(double share) {
  char text[32];
  std::snprintf(text, sizeof text, share >= 0.1 ? "%.0f %%" : "%.2g %%", share * 100.0);
  return text;
}

}  // namespace

std::string library_display_name(const std::string& library) {
  if (library == "cublas-sgemm") return "cuBLAS SGEMM";
  return library.empty() ? std::string("the library") : library;
}

std::vector<TimingLine> timing_summary(const CheckVerdict& verdict) {
  std::vector<TimingLine> lines;
  if (verdict.kernel_ms <= 0) return lines;
  const TimingStats yours = summarize_timings(verdict.kernel_runs_ms);
  const TimingStats reference = summarize_timings(verdict.solution_runs_ms);
  std::string headline = "Your kernel: " + format_milliseconds(verdict.kernel_ms);
  if (!verdict.timed_case.empty()) headline += " on " + verdict.timed_case;
  if (yours.repeats >= 2) headline += " (median of " + runs_text(yours) + ")";
  lines.push_back({headline, true});
  if (spread_too_wide(yours)) {
    lines.push_back(
        {"Your runs spread too widely to read a difference from them (the slowest "
         "took more than 1.5× as long as the fastest): the machine was busy. Check "
         "again for steadier figures.",
         false});
  }
  if (verdict.solution_ms > 0) {
    // Runs on both sides and overlapping ranges: the difference is the runs' own noise, and a
    // ratio would read as a fact ("0.44× as long" for the reference's own code).
    const bool within_noise =
        yours.repeats >= 2 && reference.repeats >= 2 && !distinguishable(yours, reference);
    std::string text = "The reference solution: " + format_milliseconds(verdict.solution_ms);
    if (within_noise) {
      text += " (" + runs_text(reference) +
              "): the two overlap, so the difference is within the timing's noise: this "
              "measurement cannot tell them apart";
    } else {
      text += " (" + ratio_text(verdict.kernel_ms, verdict.solution_ms) + ")";
    }
    lines.push_back({text, false});
  }
  if (verdict.library_ms > 0) {
    lines.push_back({library_display_name(verdict.library) + ": " +
                         format_milliseconds(verdict.library_ms) + " (" +
                         ratio_text(verdict.kernel_ms, verdict.library_ms) + ")",
                     false});
  }
  if (verdict.moved_bytes > 0 && verdict.copy_ms > 0) {
    const double bytes = static_cast<double>(verdict.moved_bytes);
    const double rate = bytes / (verdict.kernel_ms * 1e-3);
    // A kernel can beat the copy on a small case (the data sits in cache, the copy has its own
    // start-up cost): say so rather than print a share above 100 % unexplained.
    const double share = verdict.copy_ms / verdict.kernel_ms;
    std::string text = "Memory: at least " + format_bytes(bytes) + " to move; a " +
                       verdict.copy_ceiling + " of as much took " +
                       format_milliseconds(verdict.copy_ms) + ", so your kernel runs at " +
                       percent_text(share) + " of the copy rate (" +
                       plot::format_value(rate, plot::TickFormat::kByteRate, 3) + ")";
    if (share > 1.0) text += ": at this size caches and start-up costs decide, not memory";
    lines.push_back({text, false});
  }
  if (verdict.flops > 0) {
    std::string text =
        "Arithmetic: " + plot::format_value(verdict.flops, plot::TickFormat::kCount, 3) +
        " floating-point operations at " +
        plot::format_value(verdict.flops / (verdict.kernel_ms * 1e-3), plot::TickFormat::kFlopRate,
                           3);
    if (verdict.library_ms > 0) {
      text += " (" + library_display_name(verdict.library) + ": " +
              plot::format_value(verdict.flops / (verdict.library_ms * 1e-3),
                                 plot::TickFormat::kFlopRate, 3) +
              ")";
    }
    lines.push_back({text, false});
  }
  return lines;
}

}  // namespace tl::lab
