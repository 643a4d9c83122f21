#include "lab/emulator/dynamic_shared_rewrite.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace tl::lab {
namespace {

TEST(DynamicSharedRewrite, DeclarationsBecomeReferencesToTheLaunchsMemory) {
  EXPECT_EQ(rewrite_dynamic_shared("  extern __shared__ float tile[];\n"),
            "  auto& tile = ::tl::emu::dynamic_shared_array<float>();\n");
  EXPECT_EQ(rewrite_dynamic_shared("extern __shared__ __align__(16) unsigned char raw[ ];"),
            "auto& raw = ::tl::emu::dynamic_shared_array<unsigned char>();");
  EXPECT_EQ(rewrite_dynamic_shared("extern __shared__ volatile int counts[];"),
            "auto& counts = ::tl::emu::dynamic_shared_array<volatile int>();");
  EXPECT_EQ(rewrite_dynamic_shared("extern __shared__ float __align__(16) s[];"),
            "auto& s = ::tl::emu::dynamic_shared_array<float>();");
  EXPECT_EQ(rewrite_dynamic_shared("extern __shared__ alignas(8) double d[];"),
            "auto& d = ::tl::emu::dynamic_shared_array<double>();");
}

TEST(DynamicSharedRewrite, LinesAndEverythingElseStayAsWritten) {
  const std::string source =
      "__global__ void k(float* out) {\n"
      "  __shared__ float fixed[32];\n"
      "  extern __shared__ float a[]; extern __shared__ int b[];\n"
      "  out[0] = a[0] + b[0] + fixed[0];\n"
      "}\n";
  const std::string rewritten = rewrite_dynamic_shared(source);
  EXPECT_EQ(std::count(rewritten.begin(), rewritten.end(), '\n'),
            std::count(source.begin(), source.end(), '\n'));
  EXPECT_NE(rewritten.find("  __shared__ float fixed[32];\n"), std::string::npos);
  EXPECT_NE(rewritten.find("auto& a = ::tl::emu::dynamic_shared_array<float>(); auto& b = "
                           "::tl::emu::dynamic_shared_array<int>();"),
            std::string::npos)
      << rewritten;
  EXPECT_EQ(rewritten.find("extern"), std::string::npos);
}

}  // namespace
}  // namespace tl::lab
