#pragma once
// The trace of one launch as an OpenGL shader storage buffer of tl::TraceRecord, 16 bytes each; a
// zero record means nobody wrote the element. Filled by CUDA-GL interop, by an upload from the host
// or by clear(); drawn by MappingRenderer and summarized on the GPU.
//
// Every call needs the OpenGL context that created the buffer to be current. The buffer name is
// created on the first reserve(), so a TraceBuffer can be declared before any context exists.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/result.hpp"
#include "core/trace_record.hpp"

namespace tl::render {

struct TraceSummaryGpu {
  std::uint64_t unwritten = 0;      // records with writes == 0
  std::uint64_t written_more = 0;   // records with writes > 1
  std::uint32_t max_iteration = 0;  // over written records
};

// The shaders index records with 32-bit unsigned integers.
inline constexpr std::size_t kMaxTraceRecords = 0xFFFFFFFFu;
// A trace buffer larger than this is given back once traces need under a quarter of it.
inline constexpr std::size_t kLargestIdleTraceBytes = std::size_t{64} << 20;

struct SummaryKernel;

class TraceBuffer {
 public:
  TraceBuffer();
  ~TraceBuffer();
  TraceBuffer(TraceBuffer&& other) noexcept;
  TraceBuffer& operator=(TraceBuffer&& other) noexcept;
  TraceBuffer(const TraceBuffer&) = delete;
  TraceBuffer& operator=(const TraceBuffer&) = delete;

  // Makes room for `count` records. Growing reallocates the GL storage (the contents are lost) and
  // increments generation(), which tells CUDA-GL interop to register the buffer again. Shrinks
  // (the same way) only when more than kLargestIdleTraceBytes would sit at over four times the
  // need.
  Status reserve(std::size_t count);
  // Whether reserve(count) would give the buffer new storage (glBufferData). CUDA-GL interop must
  // unregister the buffer before that happens: re-specifying a registered buffer's store leaves
  // CUDA writing into the old one while OpenGL draws the new, uninitialised one.
  [[nodiscard]] bool reserve_reallocates(std::size_t count) const;
  // reserve, then copies the records in; count() becomes records.size().
  Status upload(std::span<const TraceRecord> records);
  // reserve, then zero-fills the first `count` records; count() becomes `count`.
  Status clear(std::size_t count);

  // For writers that fill the buffer themselves (interop): how many records are valid.
  void set_count(std::size_t count) { count_ = count; }
  [[nodiscard]] std::size_t count() const { return count_; }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }

  // One record, read back from the GPU (for hover tooltips; slow for many).
  Result<TraceRecord> read(std::size_t index) const;

  [[nodiscard]] std::uint32_t gl_buffer() const { return buffer_; }
  [[nodiscard]] std::uint64_t generation() const { return generation_; }

  // Counts over the first count() records with a compute shader. `threads_per_block` is accepted
  // for the launch's context but the counts do not depend on it: records carry linear indices.
  Result<TraceSummaryGpu> summarize(std::uint32_t threads_per_block) const;

 // Deletes the GL storage; the next reserve() makes a new buffer (a new generation). After a
  // fatal CUDA error the old one may stay mapped by a context that can no longer unmap it.
  void release();

 private:

  std::uint32_t buffer_ = 0;
  std::size_t capacity_ = 0;
  std::size_t count_ = 0;
  std::uint64_t generation_ = 0;
  // The summary compute shader and its result buffer, built on the first summarize().
  mutable std::unique_ptr<SummaryKernel> summary_kernel_;
};

}  // namespace tl::render
