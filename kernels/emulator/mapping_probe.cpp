#include "kernels/mapping_probe.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "emulate.hpp"

namespace tl::kernels {
namespace {

// A signalling NaN with a payload no kernel computes: an element still holding it was not written.
constexpr std::uint32_t kSentinel = 0x7FBADBADu;

std::uint32_t bits(float value) {
  std::uint32_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

void fill_sentinel(std::vector<float>& out) {
  for (float& v : out) std::memcpy(&v, &kSentinel, sizeof v);
}

struct Writer {
  std::uint32_t writes = 0;
  std::uint64_t block = 0;
  std::uint32_t thread = 0;  // the last writer's, as a trace record keeps it
};

std::string describe_writer(const Writer& w) {
  if (w.writes == 0) return "by no thread";
  std::string text = "by block " + std::to_string(w.block) + " thread " + std::to_string(w.thread);
  if (w.writes > 1) text += " (" + std::to_string(w.writes) + " writes, the last one)";
  return text;
}

}  // namespace

Result<MappingReport> compare_mappings(const MappingProbe& probe) {
  const std::uint64_t elements = probe.rows * probe.cols;
  MappingReport report;
  report.elements = elements;

  // The timed kernel, watched step by step.
  std::vector<float> out(elements);
  fill_sentinel(out);
  std::vector<Writer> timed(elements);
  {
    emu::WatchLaunches watch([&](std::uint64_t block, std::uint32_t thread) {
      ++report.thread_steps;
      for (std::uint64_t e = 0; e < elements; ++e) {
        if (bits(out[e]) == kSentinel) continue;
        timed[e] = {timed[e].writes + 1, block, thread};
        std::memcpy(&out[e], &kSentinel, sizeof kSentinel);
      }
    });
    TL_RETURN_IF_ERROR(probe.timed(out.data()));
    report.kernels = watch.kernels();
  }

  // The traced kernel, once.
  fill_sentinel(out);
  std::vector<TraceRecord> records(elements, TraceRecord{});
  {
    emu::WatchLaunches names_only([](std::uint64_t, std::uint32_t) {});
    TL_RETURN_IF_ERROR(probe.traced(out.data(), records.data()));
    for (const std::string& k : names_only.kernels()) report.kernels.push_back(k);
  }

  for (std::uint64_t e = 0; e < elements; ++e) {
    if (timed[e].writes != 0) ++report.timed_written;
    const TraceRecord& r = records[e];
    const Writer traced{r.writes, r.block, r.thread_and_sm & kTraceThreadMask};
    const bool same = timed[e].writes == traced.writes &&
                      (traced.writes == 0 ||
                       (timed[e].block == traced.block && timed[e].thread == traced.thread));
    if (same || !report.mismatch.empty()) continue;
    report.mismatch = probe.name + ": element (" + std::to_string(e / probe.cols) + ", " +
                      std::to_string(e % probe.cols) + "): timed written " +
                      describe_writer(timed[e]) + ", traced " + describe_writer(traced);
  }
  return report;
}

}  // namespace tl::kernels
