#pragma once
// Reads the learner's kernel declaration from their source: its parameters, and whether each one
// takes an array as a plain pointer or as one of the Lab's views (Array<T>, Matrix<T>). The worker
// must pass each argument in the form the kernel declares, and a parameter of the wrong kind is
// an error the learner should read before anything runs.

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "lab/exercise.hpp"

namespace tl::lab {

enum class ArgumentForm { kPointer, kArrayView, kMatrixView, kScalar };

struct DeclaredParameter {
  std::string type;  // as written, e.g. "const float*" or "Array<float>"
  std::string name;
  ArgumentForm form = ArgumentForm::kScalar;
};

struct KernelSignature {
  std::string name;
  int line = 0;  // 1-based line of `__global__`
  std::vector<DeclaredParameter> parameters;
};

// The source with comments, string and character literals blanked (newlines kept, so lines and
// columns still match the learner's file).
[[nodiscard]] std::string without_comments_and_strings(std::string_view source);

// The `__global__` function named `kernel_name`, or an error that says what is missing.
[[nodiscard]] Result<KernelSignature> find_kernel(std::string_view source,
                                                  std::string_view kernel_name);

// The kernel's parameters against the exercise's: same count, arrays where arrays are expected,
// scalars where scalars are. The error names the first parameter that differs.
[[nodiscard]] Status match_parameters(const KernelSignature& signature, const Exercise& exercise);

// The first rule of the exercise the source does not follow, if any ("must use shared memory").
[[nodiscard]] std::vector<SourceRule> broken_rules(std::string_view source,
                                                   std::span<const SourceRule> rules);

}  // namespace tl::lab
