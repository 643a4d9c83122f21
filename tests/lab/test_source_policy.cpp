// The compile step's rule (source_policy.hpp): what a learner's source may ask the compiler to
// read. Allowed: the prelude and system headers by name. Refused, with the line: absolute and
// `..` paths, computed includes, #include_next, GCC's dependency pragma, __has_include probing,
// and the assembler's file-reading directives, however the string is split.
#include <gtest/gtest.h>

#include <string>

#include "lab/source_policy.hpp"
#include "lab/worker/sandbox.hpp"

namespace tl::lab {
namespace {

std::string refusal(const std::string& source) {
  return source_policy_violation(source, "b.cu").value_or("");
}

TEST(SourcePolicy, OrdinaryKernelsAndSystemHeadersPass) {
  EXPECT_EQ(refusal("#include <cstdint>\n#include <cuda_fp16.h>\n#include \"threadlab_lab.cuh\"\n"
                    "__global__ void k(Array<float> a) { a[0] = 1; }\n"),
            "");
  EXPECT_EQ(refusal("#  include <sys/types.h>\n// #include \"/etc/passwd\" in a comment\n"), "");
  EXPECT_EQ(refusal("#if __has_include(<cuda_bf16.h>)\n#endif\n"), "");
  EXPECT_EQ(refusal("asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"), "");
}

TEST(SourcePolicy, PathsOutOfTheHeadersAreRefusedWithTheirLine) {
  EXPECT_EQ(refusal("int x;\n#include \"/etc/passwd\"\n"),
            "b.cu line 2: #include \"/etc/passwd\" is not allowed: an absolute path (a Lab kernel "
            "may include only the Lab's prelude and system headers)");
  EXPECT_NE(refusal("#include <../../../home/teacher/answers.txt>\n").find("a '..' in the path"),
            std::string::npos);
  EXPECT_NE(refusal("#include \"sub/../../x.h\"\n").find("'..'"), std::string::npos);
  EXPECT_NE(refusal("#include </dev/zero>\n").find("absolute"), std::string::npos);
  // Joined by a backslash-newline, as the preprocessor joins it.
  EXPECT_NE(refusal("#include \\\n\"/etc/shadow\"\n").find("b.cu line 1"), std::string::npos);
}

TEST(SourcePolicy, ComputedIncludesAndOtherDirectivesAreRefused) {
  EXPECT_NE(
      refusal("#define H \"/etc/passwd\"\n#include H\n").find("b.cu line 2: an #include must"),
      std::string::npos);
  EXPECT_NE(refusal("#include_next <stdio.h>\n").find("#include_next is not allowed"),
            std::string::npos);
  EXPECT_NE(refusal("#pragma GCC dependency \"/etc/passwd\"\n").find("dependency"),
            std::string::npos);
  EXPECT_NE(refusal("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n").find("_Pragma"),
            std::string::npos);
  EXPECT_NE(refusal("#if __has_include(\"/home/t/answers.txt\")\n#endif\n").find("__has_include"),
            std::string::npos);
}

TEST(SourcePolicy, AssemblerDirectivesThatReadFilesAreRefusedHoweverSplit) {
  EXPECT_NE(refusal("asm(\".incbin \\\"/etc/passwd\\\"\");\n").find(".incbin"), std::string::npos);
  EXPECT_NE(refusal("int a;\nasm(\".inc\" \"bin \\\"/etc/passwd\\\"\");\n").find("b.cu line 2"),
            std::string::npos);
  EXPECT_NE(refusal("__asm__(\".INCLUDE \\\"x.s\\\"\");\n").find(".include"), std::string::npos);
}

TEST(SandboxLayers, OthersCodeNeedsFilesNetworkAndTheGraderCovered) {
  SandboxLayers everything;
  everything.namespaces = everything.private_view = true;
  everything.landlock_abi = 6;
  everything.seccomp = true;
  EXPECT_TRUE(everything.isolates());
  EXPECT_EQ(everything.describe(), "user+pid+net+mount+ipc namespaces, Landlock v6, seccomp");

  SandboxLayers ubuntu;  // AppArmor refuses the user namespace; Landlock and seccomp hold
  ubuntu.landlock_abi = 4;
  ubuntu.seccomp = true;
  ubuntu.missing.push_back("namespaces: unshare: Operation not permitted");
  EXPECT_TRUE(ubuntu.isolates());
  EXPECT_EQ(ubuntu.describe(),
            "Landlock v4, seccomp (missing: namespaces: unshare: Operation not permitted)");

  SandboxLayers old_kernel;  // no Landlock, no namespaces: the files are open
  old_kernel.seccomp = true;
  EXPECT_FALSE(old_kernel.isolates());
  SandboxLayers no_filter;  // Landlock alone leaves sockets and signals (before ABI 6) open
  no_filter.landlock_abi = 3;
  EXPECT_FALSE(no_filter.isolates());
  EXPECT_EQ(SandboxLayers{}.describe(), "none");
}

TEST(SandboxPolicy, ItsArgumentsReadBackAsTheSamePolicy) {
  SandboxPolicy policy;
  policy.gpu = true;
  policy.writable = {"/tmp/threadlab-lab-abc", "/home/s/.cache/threadlab/lab"};
  policy.readable = {"/opt/cuda/lib64"};
  const SandboxPolicy back = sandbox_policy_from_arguments(sandbox_arguments(policy));
  EXPECT_TRUE(back.gpu);
  EXPECT_EQ(back.writable, policy.writable);
  EXPECT_EQ(back.readable, policy.readable);
  EXPECT_FALSE(sandbox_policy_from_arguments({"--sandbox"}).gpu);
}

}  // namespace
}  // namespace tl::lab
