#include "lab/worker/kernel_parameters.hpp"

#include <cstring>

namespace tl::lab {
namespace {

struct ArrayParameter {  // the prelude's Array<T>
  std::uint64_t data;
  std::int32_t size;
  std::uint32_t parameter;
  std::uint64_t trace;
  std::uint64_t fault;
};
static_assert(sizeof(ArrayParameter) == 32);

struct MatrixParameter {  // the prelude's Matrix<T>
  std::uint64_t data;
  std::int32_t rows;
  std::int32_t cols;
  std::uint64_t trace;
  std::uint64_t fault;
  std::uint32_t parameter;
  std::uint32_t padding;
};
static_assert(sizeof(MatrixParameter) == 40);
static_assert(sizeof(void*) == sizeof(std::uint64_t), "the views hold 64-bit addresses");

}  // namespace

void write_parameter(const WireArgument& a, std::size_t index, std::uint64_t data,
                     std::uint64_t trace, std::uint64_t fault, ParameterSlot& slot) {
  switch (a.form) {
    case ArgumentForm::kScalar:
      if (a.is_float) {
        std::memcpy(slot.data(), &a.float_value, sizeof a.float_value);
      } else {
        std::memcpy(slot.data(), &a.int_value, sizeof a.int_value);
      }
      return;
    case ArgumentForm::kPointer:
      std::memcpy(slot.data(), &data, sizeof data);
      return;
    case ArgumentForm::kArrayView: {
      const ArrayParameter view{data, static_cast<std::int32_t>(a.rows * a.cols),
                                static_cast<std::uint32_t>(index), trace, fault};
      std::memcpy(slot.data(), &view, sizeof view);
      return;
    }
    case ArgumentForm::kMatrixView: {
      const MatrixParameter view{data,
                                 static_cast<std::int32_t>(a.rows),
                                 static_cast<std::int32_t>(a.cols),
                                 trace,
                                 fault,
                                 static_cast<std::uint32_t>(index),
                                 0};
      std::memcpy(slot.data(), &view, sizeof view);
      return;
    }
  }
}

}  // namespace tl::lab
