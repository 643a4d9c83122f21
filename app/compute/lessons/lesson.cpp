#include "lesson.hpp"

#include "core/lessons/dense_layer.hpp"
#include "core/lessons/matmul.hpp"
#include "core/lessons/matrix_add.hpp"
#include "core/lessons/thread_hierarchy.hpp"
#include "core/lessons/vector_add.hpp"
#include "core/sweep/block_sweep.hpp"
#include "dense_layer_lesson.hpp"
#include "matmul_lesson.hpp"
#include "matrix_add_lesson.hpp"
#include "thread_hierarchy_lesson.hpp"
#include "vector_add_lesson.hpp"

namespace tl::compute {

const TimingRow* LessonReport::find(std::string_view name) const {
  for (const TimingRow& row : rows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

Status Lesson::check_watchdog(const Device& device) const {
  if (!device.is_gpu()) return Status::ok();
  const auto work = longest_kernel();
  if (!work) return Status::ok();
  const DeviceInfo& info = device.info();
  return tl::check_watchdog(
      info, pessimistic_kernel_seconds(info, work->flops, work->bytes, work->efficiency),
      work->kernel);
}

Result<std::unique_ptr<Lesson>> make_lesson(std::string_view id) {
  const auto info = lessons::find_lesson(id);
  if (!info) {
    std::string known;
    for (const auto& l : lessons::catalog())
      known += (known.empty() ? "" : ", ") + std::string(l.id);
    return invalid_argument("unknown lesson '" + std::string(id) + "' (lessons: " + known + ")");
  }
  if (id == lessons::kVectorAddId) return std::unique_ptr<Lesson>(make_vector_add_lesson());
  if (id == lessons::kThreadHierarchyId) return make_thread_hierarchy_lesson();
  if (id == lessons::kMatrixAddId) return make_matrix_add_lesson();
  if (id == lessons::kMatmulId) return make_matmul_lesson();
  if (id == lessons::kDenseLayerId) return make_dense_layer_lesson();
  return invalid_argument("lesson '" + std::string(id) + "' is not available in this version yet");
}

std::vector<BlockStep> block_steps_1d(const lessons::ParamValues& base, bool keep_grid) {
  std::vector<BlockStep> steps;
  for (const Dim3& block : block_sweep_1d(standard_cuda_limits().max_threads_per_block)) {
    lessons::ParamValues values = base;
    values["block"] = std::to_string(block.x);
    if (!keep_grid) values["grid"] = "auto";
    steps.push_back({block, std::move(values)});
  }
  return steps;
}

std::vector<BlockStep> block_steps_2d(const lessons::ParamValues& base, std::uint32_t max_x,
                                      std::uint32_t max_y) {
  std::vector<BlockStep> steps;
  for (const Dim3& block :
       block_sweep_2d(standard_cuda_limits().max_threads_per_block, max_x, max_y)) {
    lessons::ParamValues values = base;
    values["block"] = std::to_string(block.x) + "," + std::to_string(block.y);
    values["grid"] = "auto";
    steps.push_back({block, std::move(values)});
  }
  return steps;
}

}  // namespace tl::compute
