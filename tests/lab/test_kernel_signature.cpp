#include <gtest/gtest.h>

#include "lab/kernel_signature.hpp"

namespace tl::lab {
namespace {

Exercise vector_add_shape() {
  Exercise e;
  e.kernel_name = "add";
  e.parameters = {{"a", ParameterKind::kInputArray},
                  {"b", ParameterKind::kInputArray},
                  {"c", ParameterKind::kOutputArray},
                  {"n", ParameterKind::kInt}};
  return e;
}

TEST(KernelSignature, ReadsViewsPointersAndScalarsInOrder) {
  const auto signature = find_kernel(
      "// __global__ void add(int) in a comment is not the kernel\n"
      "__device__ float twice(float v) { return 2 * v; }\n"
      "__global__ void add(Array<const float> a, const float* __restrict__ b,\n"
      "                    Matrix<float> c, int n) {}\n",
      "add");
  ASSERT_TRUE(signature) << signature.error().message;
  EXPECT_EQ(signature->line, 3);
  ASSERT_EQ(signature->parameters.size(), 4u);
  EXPECT_EQ(signature->parameters[0].form, ArgumentForm::kArrayView);
  EXPECT_EQ(signature->parameters[0].name, "a");
  EXPECT_EQ(signature->parameters[1].form, ArgumentForm::kPointer);
  EXPECT_EQ(signature->parameters[1].name, "b");
  EXPECT_EQ(signature->parameters[2].form, ArgumentForm::kMatrixView);
  EXPECT_EQ(signature->parameters[3].form, ArgumentForm::kScalar);
  EXPECT_EQ(signature->parameters[3].type, "int");
}

TEST(KernelSignature, LaunchBoundsAndRegisterCapsAreNotTheKernelsName) {
  const auto bounded = find_kernel(
      "__global__ void __launch_bounds__(256, (8)) vector_add(Array<float> c, int n) {}",
      "vector_add");
  ASSERT_TRUE(bounded) << bounded.error().message;
  ASSERT_EQ(bounded->parameters.size(), 2u);
  EXPECT_EQ(bounded->parameters[1].name, "n");
  const auto capped = find_kernel("__global__ void __maxnreg__(32)\nadd(float* c) {}", "add");
  ASSERT_TRUE(capped) << capped.error().message;
  EXPECT_EQ(capped->parameters.size(), 1u);
}

TEST(KernelSignature, NamesTheKernelsItFoundWhenTheExpectedOneIsMissing) {
  const auto signature = find_kernel("__global__ void vecAdd(float* a) {}", "vector_add");
  ASSERT_FALSE(signature);
  EXPECT_NE(signature.error().message.find("vecAdd"), std::string::npos);
  EXPECT_NE(signature.error().message.find("vector_add"), std::string::npos);
}

TEST(KernelSignature, ParametersMustMatchTheExerciseInCountAndKind) {
  const Exercise e = vector_add_shape();
  auto check = [&](const char* source) { return match_parameters(*find_kernel(source, "add"), e); };
  EXPECT_TRUE(
      check("__global__ void add(Array<const float> a, Array<const float> b, "
            "Array<float> c, int n) {}"));
  EXPECT_TRUE(check("__global__ void add(const float* a, const float* b, float* c, int n) {}"));
  const Status too_few = check("__global__ void add(const float* a, float* c, int n) {}");
  ASSERT_FALSE(too_few);
  EXPECT_NE(too_few.message().find("takes 3 parameters; the exercise passes 4"), std::string::npos);
  const Status scalar_for_array =
      check("__global__ void add(float a, float* b, float* c, int n) {}");
  ASSERT_FALSE(scalar_for_array);
  EXPECT_NE(scalar_for_array.message().find("parameter 1 ('a', float)"), std::string::npos);
  const Status float_for_int =
      check("__global__ void add(float* a, float* b, float* c, float n) {}");
  ASSERT_FALSE(float_for_int);
  EXPECT_NE(float_for_int.message().find("must be an int"), std::string::npos);
  const Status const_output = check(
      "__global__ void add(Array<const float> a, Array<const float> b, Array<const float> c, "
      "int n) {}");
  ASSERT_FALSE(const_output);
  EXPECT_NE(const_output.message().find("parameter 3"), std::string::npos);
}

TEST(KernelSignature, RulesLookAtCodeNotAtComments) {
  const SourceRule rules[] = {SourceRule::kUsesSharedMemory, SourceRule::kUsesSyncthreads,
                              SourceRule::kUsesAtomics, SourceRule::kUsesWarpShuffle};
  const auto broken = broken_rules(
      "// __shared__ float tile[16]; __syncthreads(); atomicAdd(&x, 1);\n"
      "const char* s = \"__shfl_down_sync(\";\n",
      rules);
  EXPECT_EQ(broken.size(), 4u);
  const auto followed = broken_rules(
      "__shared__ float t[8];\n__syncthreads();\natomicAdd(&s[0], v);\n"
      "v += __shfl_down_sync(0xffffffff, v, 16);\n",
      rules);
  EXPECT_TRUE(followed.empty());
}

TEST(KernelSignature, BlankingKeepsLinesAndColumns) {
  const std::string source = "int a; // note\n/* one\ntwo */ int b = '\\'';\n\"str\\\"ing\" x";
  const std::string blank = without_comments_and_strings(source);
  ASSERT_EQ(blank.size(), source.size());
  EXPECT_EQ(std::count(blank.begin(), blank.end(), '\n'), 3);
  EXPECT_EQ(blank.find("note"), std::string::npos);
  EXPECT_EQ(blank.find("two"), std::string::npos);
  EXPECT_NE(blank.find("int b"), std::string::npos);
  EXPECT_NE(blank.find(" x"), std::string::npos);
  EXPECT_EQ(blank.find("ing"), std::string::npos);
}

}  // namespace
}  // namespace tl::lab
