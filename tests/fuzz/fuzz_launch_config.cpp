// Launch configurations of any shape against the device limits, the grid diagram and the occupancy
// model: the numbers the UI draws from whatever the user typed. Products of dimensions overflow
// 32 bits, block sizes are 0 or huge, devices are odd: every answer must come back, none may crash.

#include <cstdint>

#include "core/device_info.hpp"
#include "core/grid_diagram.hpp"
#include "core/launch_config.hpp"
#include "core/occupancy.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tl::fuzz::Input input(data, size);
  tl::LaunchConfig config;
  config.grid = {input.take<std::uint32_t>(), input.take<std::uint32_t>(),
                 input.take<std::uint32_t>()};
  config.block = {input.take<std::uint32_t>(), input.take<std::uint32_t>(),
                  input.take<std::uint32_t>()};
  const auto limits = tl::standard_cuda_limits();
  (void)tl::validate(config, limits);
  (void)tl::check_launch(config, limits);
  (void)tl::blocks_to_cover(input.take<std::uint64_t>(), input.take<std::uint32_t>());

  const auto kind = input.take<std::uint8_t>();
  std::optional<tl::ThreadCoverage> coverage;
  if (kind % 3 == 1) {
    coverage = tl::ThreadCoverage::linear(input.take<std::uint64_t>());
  } else if (kind % 3 == 2) {
    coverage = tl::ThreadCoverage::matrix(input.take<std::uint64_t>(), input.take<std::uint64_t>(),
                                          (kind & 4) != 0);
  }
  (void)tl::make_grid_diagram(config, coverage, input.take<std::uint8_t>(),
                              input.take<std::uint8_t>(), input.take<std::uint16_t>());

  tl::DeviceInfo device;
  device.compute_major = input.take<std::uint8_t>() % 12;
  device.limits.warp_size = input.take<std::uint8_t>();
  device.max_threads_per_multiprocessor = input.take<std::uint16_t>();
  device.registers_per_multiprocessor = input.take<std::uint32_t>();
  device.max_blocks_per_multiprocessor = input.take<std::uint8_t>();
  device.shared_memory_per_block = input.take<std::uint32_t>();
  device.shared_memory_per_multiprocessor = input.take<std::uint32_t>();
  device.reserved_shared_memory_per_block = input.take<std::uint16_t>();
  tl::KernelResources kernel;
  kernel.registers_per_thread = input.take<std::uint16_t>();
  kernel.static_shared_bytes = input.take<std::uint32_t>();
  kernel.max_threads_per_block = input.take<std::uint16_t>() % 2049;
  const tl::Occupancy one = tl::compute_occupancy(device, kernel, input.take<std::uint32_t>(),
                                                  input.take<std::uint32_t>());
  // Whatever the inputs, occupancy never claims more warps than the SM has.
  if (one.max_warps > 0 && one.active_warps > one.max_warps) __builtin_trap();
  (void)tl::occupancy_by_block_size(device, kernel);
  return 0;
}
