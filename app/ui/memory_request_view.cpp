#include "memory_request_view.hpp"

#include <algorithm>

#include "core/memory/memory_model.hpp"
#include "lab/memory_findings.hpp"

namespace tl::ui {
namespace {

// A block's or thread's position in as many dimensions as its extent has: "(3, 0)" in a 2D grid.
std::string dim_text(const Dim3& d, const Dim3& extent) {
  if (extent.z > 1) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
  }
  if (extent.y > 1) return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ")";
  return std::to_string(d.x);
}

std::string ordinal(std::uint32_t n) {
  const std::uint32_t tens = n % 100;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : n % 10 == 1              ? "st"
                       : n % 10 == 2              ? "nd"
                       : n % 10 == 3              ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

std::string element_text(std::span<const MemoryViewArray> arrays, memory::MemorySpace space,
                         std::uint64_t address) {
  if (space == memory::MemorySpace::kShared) {
    return "shared byte " + std::to_string(address) + " (word " +
           std::to_string(address / memory::kBankWordBytes) + ", bank " +
           std::to_string(memory::shared_bank(address)) + ")";
  }
  const MemoryViewArray* a = array_at(arrays, address);
  if (a == nullptr) return "an address outside the kernel's arrays";
  const std::uint64_t index = (address - a->address) / a->element_bytes;
  std::string text = a->name + "[" + std::to_string(index) + "]";
  if (a->cols > 0) {
    const auto cols = static_cast<std::uint64_t>(a->cols);
    text += " = " + a->name + "(" + std::to_string(index / cols) + ", " +
            std::to_string(index % cols) + ")";
  }
  return text;
}

// "a[8…15]": the elements of the array a 32-byte sector holds.
std::string sector_label(std::span<const MemoryViewArray> arrays, std::uint64_t sector) {
  const std::uint64_t begin = sector * memory::kSectorBytes;
  // A sector may begin before its array (an array need not start on a sector): named by its first
  // byte inside one.
  const MemoryViewArray* a = array_at(arrays, begin);
  std::uint64_t from = begin;
  if (a == nullptr) {
    for (const MemoryViewArray& candidate : arrays) {
      if (candidate.address > begin && candidate.address < begin + memory::kSectorBytes) {
        a = &candidate;
        from = candidate.address;
      }
    }
  }
  if (a == nullptr) return "sector " + std::to_string(sector);
  const std::uint64_t first = (from - a->address) / a->element_bytes;
  const std::uint64_t end = std::min(begin + memory::kSectorBytes, a->address + a->bytes);
  const std::uint64_t last = (end - a->address + a->element_bytes - 1) / a->element_bytes - 1;
  return a->name + "[" + std::to_string(first) + "…" + std::to_string(last) + "]";
}

}  // namespace

const MemoryViewArray* array_at(std::span<const MemoryViewArray> arrays, std::uint64_t address) {
  for (const MemoryViewArray& a : arrays) {
    if (address - a.address < a.bytes) return &a;
  }
  return nullptr;
}

MemoryRequestView memory_request_view(const memory::WarpRequest& request,
                                      const MemoryRequestContext& context, std::size_t index,
                                      std::size_t count) {
  MemoryRequestView view;
  view.index = index;
  view.count = count;
  view.picture = memory::request_picture(request);
  const Dim3 block = context.config.grid.unlinear(request.block);
  for (const memory::PictureLane& lane : view.picture.lanes) {
    view.lanes.push_back(
        {block, context.config.block.unlinear(std::uint64_t{request.warp} * 32 + lane.lane),
         element_text(context.arrays, request.space, lane.address)});
  }
  const bool global = request.space == memory::MemorySpace::kGlobal;
  for (const memory::PictureTarget& target : view.picture.targets) {
    view.target_labels.push_back(global ? sector_label(context.arrays, target.id)
                                        : "bank " + std::to_string(target.id));
  }
  std::string what = context.access;
  if (global && !request.lanes.empty()) {
    const MemoryViewArray* a = array_at(context.arrays, request.lanes.front().address);
    if (a != nullptr) {
      what = std::string(request.kind == memory::AccessKind::kLoad ? "load of " : "store to ") +
             a->name;
    }
  }
  view.title = "block " + dim_text(block, context.config.grid) + ", warp " +
               std::to_string(request.warp) + ", the " + ordinal(request.occurrence + 1) +
               " time through line " + std::to_string(context.line) + ": " + what + " (" +
               std::to_string(request.lanes.size()) + " active lanes)";
  const memory::RequestPicture& p = view.picture;
  if (global) {
    const memory::GlobalRequestCost cost = memory::global_request_cost(request.lanes);
    view.summary = std::to_string(p.actual) + " sectors in " + std::to_string(p.lines) +
                   (p.lines == 1 ? " line: " : " lines: ") + std::to_string(cost.bytes_moved()) +
                   " bytes moved for " + std::to_string(cost.distinct_bytes) +
                   " bytes used; the ideal is " + std::to_string(p.ideal) +
                   (p.ideal == 1 ? " sector" : " sectors");
    if (p.actual > p.ideal && p.ideal > 0) {
      view.summary += " (" + lab::per_request_text(static_cast<double>(p.actual) / p.ideal) +
                      "× the bytes needed)";
    }
  } else {
    view.summary = std::to_string(p.actual) + (p.actual == 1 ? " wavefront" : " wavefronts") +
                   ", the ideal " + std::to_string(p.ideal);
    if (p.conflict_degree > 1) {
      view.summary += ": a " + std::to_string(p.conflict_degree) +
                      "-way bank conflict (distinct words of one bank are served one after "
                      "another)";
    } else if (p.broadcast) {
      view.summary += ": every lane reads one word, a broadcast, no conflict";
    } else {
      view.summary += ": no bank conflict";
    }
  }
  return view;
}

std::size_t request_to_draw_first(std::span<const std::size_t> lanes) {
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    if (lanes[i] == 32) return i;
  }
  return 0;
}

}  // namespace tl::ui
