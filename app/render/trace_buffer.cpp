#include "render/trace_buffer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "core/format.hpp"
#include "render/gl_check.hpp"
#include "render/shader_program.hpp"
#include "render/shader_sources.hpp"

namespace tl::render {
namespace {

constexpr GLsizeiptr bytes_for(std::size_t records) {
  return static_cast<GLsizeiptr>(records * sizeof(TraceRecord));
}

// Work groups per summarize dispatch: enough to fill any GPU, well under the 65535 that GL 4.3
// guarantees; the shader strides over the rest.
constexpr std::uint64_t kSummaryGroupSize = 256;
constexpr std::uint64_t kMaxSummaryGroups = 4096;

}  // namespace

// The summary shader and its three-counter result buffer.
struct SummaryKernel {
  ShaderProgram program;
  GLuint totals = 0;

  SummaryKernel(ShaderProgram compiled, GLuint totals_buffer)
      : program(std::move(compiled)), totals(totals_buffer) {}
  SummaryKernel(const SummaryKernel&) = delete;
  SummaryKernel& operator=(const SummaryKernel&) = delete;
  ~SummaryKernel() {
    if (totals != 0) glDeleteBuffers(1, &totals);
  }

  static Result<std::unique_ptr<SummaryKernel>> create() {
    Result<ShaderProgram> program =
        ShaderProgram::compute("trace summary", {shader_source::kTraceSummaryComp});
    if (!program) return program.error();
    GLuint totals = 0;
    glGenBuffers(1, &totals);
    auto kernel = std::make_unique<SummaryKernel>(std::move(*program), totals);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, totals);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 3 * sizeof(GLuint), nullptr, GL_DYNAMIC_READ);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    TL_RETURN_IF_ERROR(check_gl("creating the trace summary buffer"));
    return kernel;
  }
};

TraceBuffer::TraceBuffer() = default;
TraceBuffer::~TraceBuffer() {
  release();
}

TraceBuffer::TraceBuffer(TraceBuffer&& other) noexcept
    : buffer_(std::exchange(other.buffer_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      count_(std::exchange(other.count_, 0)),
      generation_(other.generation_),
      summary_kernel_(std::move(other.summary_kernel_)) {}

TraceBuffer& TraceBuffer::operator=(TraceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    buffer_ = std::exchange(other.buffer_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    count_ = std::exchange(other.count_, 0);
    generation_ = other.generation_ + 1;  // a different buffer: interop must register it
    summary_kernel_ = std::move(other.summary_kernel_);
  }
  return *this;
}

void TraceBuffer::release() {
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
  summary_kernel_.reset();
  buffer_ = 0;
  capacity_ = 0;
  count_ = 0;
}

bool TraceBuffer::reserve_reallocates(std::size_t count) const {
  const bool fits = count <= capacity_;
  // Spare room is kept, but not a large buffer four times what is traced now: one 2^24-element
  // trace would otherwise hold its quarter gigabyte for the rest of the session (a soak measured
  // it as growth).
  const bool oversized = capacity_ / 4 > count && bytes_for(capacity_) > kLargestIdleTraceBytes;
  return buffer_ == 0 || !fits || oversized;
}

Status TraceBuffer::reserve(std::size_t count) {
  if (count > kMaxTraceRecords) {
    return invalid_argument("a trace holds at most " + format_count(kMaxTraceRecords) +
                            " records (the shaders index them with 32-bit integers); " +
                            format_count(count) + " were asked for");
  }
  if (!reserve_reallocates(count)) return Status::ok();
  const bool fits = count <= capacity_;
  // Grow by half again at least, so a slider dragged upwards does not reallocate on every step;
  // shrink to half again what is asked; never below one record, so gl_buffer() always names real
  // storage after a reserve.
  const std::size_t wanted =
      fits ? std::max<std::size_t>(count + count / 2, 1)
           : std::max<std::size_t>({count, capacity_ + capacity_ / 2, std::size_t{1}});
  const std::size_t grown = std::min(wanted, kMaxTraceRecords);
  clear_gl_errors();
  if (buffer_ == 0) glGenBuffers(1, &buffer_);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
  glBufferData(GL_COPY_WRITE_BUFFER, bytes_for(grown), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  if (Status status = check_gl("allocating a trace buffer of " +
                               format_bytes(static_cast<double>(bytes_for(grown))));
      !status) {
    // The old storage may be gone too: start from nothing rather than trust a half state.
    release();
    ++generation_;
    return status;
  }
  capacity_ = grown;
  ++generation_;
  return Status::ok();
}

Status TraceBuffer::upload(std::span<const TraceRecord> records) {
  TL_RETURN_IF_ERROR(reserve(records.size()));
  if (!records.empty()) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, bytes_for(records.size()), records.data());
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    TL_RETURN_IF_ERROR(check_gl("uploading " + format_count(records.size()) + " trace records"));
  }
  count_ = records.size();
  return Status::ok();
}

Status TraceBuffer::clear(std::size_t count) {
  TL_RETURN_IF_ERROR(reserve(count));
  if (count > 0) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffer_);
    // A null pattern fills with zeros.
    glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, bytes_for(count), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, nullptr);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    TL_RETURN_IF_ERROR(check_gl("clearing " + format_count(count) + " trace records"));
  }
  count_ = count;
  return Status::ok();
}

Result<TraceRecord> TraceBuffer::read(std::size_t index) const {
  if (index >= count_) {
    return invalid_argument("element " + format_count(index) + " is outside the trace of " +
                            format_count(count_) + " elements");
  }
  TraceRecord record{};
  // Whoever wrote through a shader or through CUDA must be visible to this read.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer_);
  glGetBufferSubData(GL_COPY_READ_BUFFER, bytes_for(index), sizeof(TraceRecord), &record);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  TL_RETURN_IF_ERROR(check_gl("reading trace record " + format_count(index)));
  return record;
}

Result<TraceSummaryGpu> TraceBuffer::summarize(
    [[maybe_unused]] std::uint32_t threads_per_block) const {
  TraceSummaryGpu summary;
  if (count_ == 0) return summary;
  if (!summary_kernel_) {
    Result<std::unique_ptr<SummaryKernel>> kernel = SummaryKernel::create();
    if (!kernel) return kernel.error();
    summary_kernel_ = std::move(*kernel);
  }
  const ShaderProgram& program = summary_kernel_->program;
  const GLuint totals = summary_kernel_->totals;
  clear_gl_errors();
  program.use();
  // One binding may not cover the whole trace (llvmpipe caps it at 128 MiB, 2^23 records), so the
  // records are counted range by range and the ranges added up here in 64 bits.
  const std::uint64_t chunk = max_records_per_binding();
  for (std::uint64_t begin = 0; begin < count_; begin += chunk) {
    const std::uint64_t records = std::min<std::uint64_t>(chunk, count_ - begin);
    const std::array<GLuint, 3> zeros{0, 0, 0};
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, totals);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(zeros), zeros.data());
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, buffer_, bytes_for(begin), bytes_for(records));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, totals);
    program.set_uint("u_count", static_cast<std::uint32_t>(records));
    const std::uint64_t groups = std::clamp<std::uint64_t>(
        (records + kSummaryGroupSize - 1) / kSummaryGroupSize, 1, kMaxSummaryGroups);
    glDispatchCompute(static_cast<GLuint>(groups), 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::array<GLuint, 3> counts{};
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(counts), counts.data());
    summary.unwritten += counts[0];
    summary.written_more += counts[1];
    summary.max_iteration = std::max(summary.max_iteration, counts[2]);
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glUseProgram(0);
  TL_RETURN_IF_ERROR(check_gl("summarizing " + format_count(count_) + " trace records"));
  return summary;
}

}  // namespace tl::render
