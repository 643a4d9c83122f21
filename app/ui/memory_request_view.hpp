#pragma once
// One warp-level request as the Memory pictures show it, in the lesson workspace's Memory tab and
// in the Kernel Lab's Memory panel alike: its title and cost in words, its lanes laid out onto
// sectors or banks (core/memory/request_picture.hpp), each lane's block, thread and element, each
// sector's elements. Plain data, computed by the controllers from what they recorded
// (lesson_memory_controller, lab_controller) and drawn as is by panels/memory_request_drawing.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dim3.hpp"
#include "core/launch_config.hpp"
#include "core/memory/request_picture.hpp"
#include "core/memory/warp_requests.hpp"

namespace tl::ui {

// A lane of the drawn request, for its hover.
struct MemoryLaneInfo {
  Dim3 block;
  Dim3 thread;
  std::string element;  // "a[4160]", "A[4160] = A(13, 260)", "shared byte 132 (word 33, bank 1)"
};

// The request of the selected line that is drawn: one warp's lanes onto sectors or banks.
struct MemoryRequestView {
  std::size_t index = 0;  // among the selected row's requests
  std::size_t count = 0;  // the row's requests that can be drawn
  std::string title;      // "block (0, 0), warp 0, the 1st time through line 22: load of a (...)"
  std::string summary;    // "32 sectors in 32 lines: 1024 bytes moved for 128 bytes used; ..."
  std::string cut;        // why fewer requests than the line made can be stepped through, if so
  memory::RequestPicture picture;
  std::vector<MemoryLaneInfo> lanes;       // parallel to picture.lanes
  std::vector<std::string> target_labels;  // parallel to picture.targets: "a[8…15]", "bank 5"
};

// Where a kernel's array lay during the recording, to name the element a lane touched.
struct MemoryViewArray {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
  std::uint32_t element_bytes = 4;
  std::int64_t cols = 0;  // a matrix's (row-major): its elements are also named (row, col); 0: none
};

// What a request is drawn with beyond itself.
struct MemoryRequestContext {
  LaunchConfig config;  // the recorded launch: where the request's block and its lanes' threads are
  std::span<const MemoryViewArray> arrays;
  int line = 0;        // the source line of the request's row
  std::string access;  // "global load": the title's words where no array of `arrays` is touched
};

[[nodiscard]] const MemoryViewArray* array_at(std::span<const MemoryViewArray> arrays,
                                              std::uint64_t address);

// Request `index` of the `count` a row can draw.
[[nodiscard]] MemoryRequestView memory_request_view(const memory::WarpRequest& request,
                                                    const MemoryRequestContext& context,
                                                    std::size_t index, std::size_t count);

// Which of a row's requests to draw first: the first whose warp has all 32 lanes active, since the
// 32 lanes are what the picture is about (a partial warp at the data's edge comes later in the
// recording, or not at all); else the first. `lanes[i]` is request i's active lanes.
[[nodiscard]] std::size_t request_to_draw_first(std::span<const std::size_t> lanes);

}  // namespace tl::ui
