// The run-time loader the toolkit's optional libraries go through: which candidate it takes, what
// it says it tried, and which symbol it names as missing.
#include "core/dynamic_library.hpp"

#include <gtest/gtest.h>

namespace tl {
namespace {

// The C math library is on every Linux system this builds on.
constexpr const char* kMath = "libm.so.6";

TEST(DynamicLibrary, OpensTheFirstCandidateTheLoaderFindsAndListsTheOnesBefore) {
  DynamicLibrary library =
      DynamicLibrary::open_first({"libthreadlab-absent-a.so", "", "libthreadlab-absent-b.so.3",
                                  kMath, "libthreadlab-never-tried.so"});
  ASSERT_TRUE(library.loaded()) << library.tried();
  EXPECT_EQ(library.path(), kMath);
  EXPECT_EQ(library.tried(), "libthreadlab-absent-a.so, libthreadlab-absent-b.so.3");
}

TEST(DynamicLibrary, BindsPresentSymbolsAndNamesMissingOnes) {
  DynamicLibrary library = DynamicLibrary::open_first({kMath});
  ASSERT_TRUE(library.loaded()) << library.tried();
  double (*cosine)(double) = nullptr;
  ASSERT_TRUE(library.bind(cosine, "cos"));
  EXPECT_DOUBLE_EQ(cosine(0.0), 1.0);
  EXPECT_TRUE(library.missing().empty());
  void (*absent)() = nullptr;
  EXPECT_FALSE(library.bind(absent, "threadlab_no_such_function"));
  EXPECT_EQ(absent, nullptr);
  EXPECT_FALSE(library.bind(absent, "threadlab_nor_this_one"));
  EXPECT_EQ(library.missing(), "threadlab_no_such_function, threadlab_nor_this_one");
}

TEST(DynamicLibrary, NothingFoundSaysEverythingItTriedAndBindsNothing) {
  DynamicLibrary library =
      DynamicLibrary::open_first({"libthreadlab-absent.so.13", "/nowhere/libthreadlab-absent.so"});
  EXPECT_FALSE(library.loaded());
  EXPECT_EQ(library.path(), "");
  EXPECT_EQ(library.tried(), "libthreadlab-absent.so.13, /nowhere/libthreadlab-absent.so");
  int (*function)() = nullptr;
  EXPECT_FALSE(library.bind(function, "anything"));
  EXPECT_EQ(library.missing(), "anything");
}

}  // namespace
}  // namespace tl
