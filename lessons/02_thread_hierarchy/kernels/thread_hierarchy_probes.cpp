// Lesson 2's timed/traced pairs under the mapping probe (kernels/mapping_probe.hpp).

#include <memory>
#include <string>

#include "kernels/kernel_registry.hpp"
#include "kernels/mapping_probe.hpp"
#include "lessons/02_thread_hierarchy/kernels/thread_hierarchy_kernels.hpp"

namespace tl::kernels {

std::vector<MappingProbe> thread_hierarchy_mapping_probes() {
  const ThreadHierarchyKernels& k = emulator_kernels().get<kernels::ThreadHierarchyKernels>();
  std::vector<MappingProbe> probes;
  // 3D grid of 3D blocks, 288 threads for 250 elements; and a grid-stride loop that goes three
  // times round a grid of 128 threads.
  const LaunchConfig one_config{{2, 3, 2}, {4, 3, 2}};
  const std::uint64_t one_n = 250;
  const LaunchConfig stride_config{{2, 2, 1}, {8, 2, 2}};
  const std::uint64_t stride_n = 300;
  auto blocks_for = [](const LaunchConfig& config) {
    return std::make_shared<std::vector<BlockRecord>>(config.grid.volume());
  };
  {
    auto in = probe_inputs(one_n, 1);
    auto blocks = blocks_for(one_config);
    probes.push_back(
        {"hierarchy_one_per_thread n = 250 on " + one_config.to_string(), one_config, 1, one_n,
         [=, &k](float* out) { return k.one_per_thread(one_config, in->data(), out, one_n); },
         [=, &k](float* out, TraceRecord* trace) {
           return k.one_per_thread_traced(one_config, in->data(), out, one_n, trace,
                                          blocks->data());
         }});
  }
  {
    auto in = probe_inputs(stride_n, 2);
    auto blocks = blocks_for(stride_config);
    probes.push_back(
        {"hierarchy_grid_stride n = 300 on " + stride_config.to_string(), stride_config, 1,
         stride_n,
         [=, &k](float* out) { return k.grid_stride(stride_config, in->data(), out, stride_n); },
         [=, &k](float* out, TraceRecord* trace) {
           return k.grid_stride_traced(stride_config, in->data(), out, stride_n, trace,
                                       blocks->data());
         }});
  }
  // The divergence kernels, one element per thread on a 2D block whose rows are not whole warps
  // (so the in-block number, not threadIdx.x, picks the side) and with a grid-stride loop.
  using BranchLaunch = Status (*)(const LaunchConfig&, const float*, float*, std::uint64_t, bool);
  using BranchTracedLaunch = Status (*)(const LaunchConfig&, const float*, float*, std::uint64_t,
                                        bool, TraceRecord*, BlockRecord*);
  struct BranchPair {
    const char* name;
    BranchLaunch timed;
    BranchTracedLaunch traced;
  };
  const BranchPair pairs[] = {
      {"hierarchy_branch_by_thread", k.branch_by_thread, k.branch_by_thread_traced},
      {"hierarchy_branch_by_warp", k.branch_by_warp, k.branch_by_warp_traced}};
  const LaunchConfig branch_config{{3, 1, 1}, {24, 4, 1}};
  const std::uint64_t branch_n = 250;
  for (const BranchPair& pair : pairs) {
    for (const bool grid_stride : {false, true}) {
      const LaunchConfig config = grid_stride ? LaunchConfig{{2, 1, 1}, {64, 1, 1}} : branch_config;
      const std::uint64_t n = grid_stride ? 300 : branch_n;
      auto in = probe_inputs(n, grid_stride ? 4 : 3);
      auto blocks = blocks_for(config);
      probes.push_back(
          {std::string(pair.name) + (grid_stride ? " (grid-stride)" : "") +
               " n = " + std::to_string(n) + " on " + config.to_string(),
           config, 1, n,
           [=](float* out) { return pair.timed(config, in->data(), out, n, grid_stride); },
           [=](float* out, TraceRecord* trace) {
             return pair.traced(config, in->data(), out, n, grid_stride, trace, blocks->data());
           }});
    }
  }
  return probes;
}

}  // namespace tl::kernels
