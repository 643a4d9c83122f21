#pragma once
// One warp-level request laid out for a picture: each active lane with the 32-byte sector (global
// memory) or the bank (shared memory) it lands in, and those sectors or banks with how many lanes
// and distinct words each carries. The Memory tab draws it as it is: 32 lanes in a row, a line from
// each to its sector or bank, so a learner sees why 32 neighbouring floats cost 4 sectors and 32
// floats a row apart cost 32, and where the words of one bank stack up into a conflict. Computed
// here, not in the panel, so that what the picture shows is tested (and the panel only draws).
//
// What the picture simplifies, where the figures beside it (memory_model.hpp) do not: a lane whose
// access spans several sectors or banks (a misaligned or a 16-byte access) is drawn to the first
// of them, and a bank's stack counts the distinct words over the whole request, where the model
// counts 8- and 16-byte accesses per phase. The cost shown with it is always the model's.

#include <cstdint>
#include <vector>

#include "core/memory/memory_model.hpp"
#include "core/memory/warp_requests.hpp"

namespace tl::memory {

struct PictureLane {
  std::uint32_t lane = 0;
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t target = 0;  // index into RequestPicture::targets
};

struct PictureTarget {
  // Global: the sector's number (address / 32). Shared: the bank, 0..31.
  std::uint64_t id = 0;
  std::uint64_t line = 0;   // global: the 128-byte line's number (address / 128); shared: 0
  std::uint32_t lanes = 0;  // lanes drawn to it
  std::uint32_t words = 0;  // distinct 4-byte words of those lanes (a bank's stack)
};

struct RequestPicture {
  MemorySpace space = MemorySpace::kGlobal;
  AccessKind kind = AccessKind::kLoad;
  std::vector<PictureLane> lanes;  // the active lanes, in lane order
  // Global: the sectors the lanes touch, by address (gaps between them are sectors nobody asked
  // for). Shared: all 32 banks, in bank order, touched or not.
  std::vector<PictureTarget> targets;
  // The model's figures for this request: sectors against the ideal (global), wavefronts against
  // the ideal (shared), and the busiest bank's distinct words.
  std::uint32_t actual = 0;
  std::uint32_t ideal = 0;
  std::uint32_t lines = 0;            // global: 128-byte lines touched
  std::uint32_t conflict_degree = 0;  // shared
  bool broadcast = false;             // shared: every lane on the same bytes
};

[[nodiscard]] RequestPicture request_picture(const WarpRequest& request);

}  // namespace tl::memory
