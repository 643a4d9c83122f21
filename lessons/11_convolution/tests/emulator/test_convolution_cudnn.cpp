// Lesson 11's cuDNN graph path where no GPU is needed: the dims and strides it gives cuDNN for NCHW
// and NHWC, FP32 and FP16; which engines it leaves out and how it names the one it keeps; the
// reasons a missing or wrong library gives; and, where cuDNN is installed (a GPU is not needed),
// the tensor, convolution and operation descriptors built and finalized by the real library.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

#include "lessons/11_convolution/convolution.hpp"
#include "lessons/11_convolution/convolution_cudnn_graph.hpp"
#if defined(THREADLAB_HAVE_CUDA)
#include "lessons/11_convolution/convolution_cudnn.hpp"
#endif

namespace tl::lessons {
namespace {

using Dims = std::array<std::int64_t, 4>;

// Five channels, a 7 × 6 image, three 3 × 2 filters, stride 2, pad 1: every extent different, so
// that a stride computed from the wrong one shows.
ConvShape odd_shape(bool nhwc) {
  ConvShape s;
  s.n = 2;
  s.c = 5;
  s.h = 7;
  s.w = 6;
  s.k = 3;
  s.r = 3;
  s.s = 2;
  s.stride = 2;
  s.pad = 1;
  s.nhwc = nhwc;
  return s;
}

TEST(ConvolutionCudnnGraph, NchwDimsAreNchwAndStridesPackWidthFastest) {
  const ConvShape s = odd_shape(false);
  const CudnnGraphLayout l = cudnn_graph_layout(s, false);
  EXPECT_EQ(l.x.dims, (Dims{2, 5, 7, 6}));
  EXPECT_EQ(l.x.strides, (Dims{5 * 7 * 6, 7 * 6, 6, 1}));
  EXPECT_EQ(l.w.dims, (Dims{3, 5, 3, 2}));  // KCRS
  EXPECT_EQ(l.w.strides, (Dims{5 * 3 * 2, 3 * 2, 2, 1}));
  ASSERT_EQ(s.p(), 4u);  // (7 + 2 - 3) / 2 + 1
  ASSERT_EQ(s.q(), 4u);  // (6 + 2 - 2) / 2 + 1
  EXPECT_EQ(l.y.dims, (Dims{2, 3, 4, 4}));
  EXPECT_EQ(l.y.strides, (Dims{3 * 4 * 4, 4 * 4, 4, 1}));
}

TEST(ConvolutionCudnnGraph, NhwcKeepsNchwDimsAndPutsChannelsFastest) {
  // The graph API takes dims in N, C, H, W order whatever the layout: only the strides change.
  const ConvShape s = odd_shape(true);
  const CudnnGraphLayout l = cudnn_graph_layout(s, true);
  EXPECT_EQ(l.x.dims, (Dims{2, 5, 7, 6}));
  EXPECT_EQ(l.x.strides, (Dims{7 * 6 * 5, 1, 6 * 5, 5}));
  EXPECT_EQ(l.w.dims, (Dims{3, 5, 3, 2}));  // stored KRSC, cuDNN's NHWC filter
  EXPECT_EQ(l.w.strides, (Dims{3 * 2 * 5, 1, 2 * 5, 5}));
  EXPECT_EQ(l.y.dims, (Dims{2, 3, 4, 4}));
  EXPECT_EQ(l.y.strides, (Dims{4 * 4 * 3, 1, 4 * 3, 3}));
}

TEST(ConvolutionCudnnGraph, StridesMatchTheLessonsOwnLayoutOfEveryElement) {
  // The runner hands cuDNN arrays laid out by conv_to_layout: the element at (n, c, y, x) must be
  // where the strides say, for the input (and by the same rule the filter and the output).
  for (const bool nhwc : {false, true}) {
    const ConvShape s = odd_shape(nhwc);
    const CudnnGraphLayout l = cudnn_graph_layout(s, false);
    std::vector<float> nchw(s.input_elements());
    for (std::size_t i = 0; i < nchw.size(); ++i) nchw[i] = static_cast<float>(i);
    const std::vector<float> laid = conv_to_layout(s, nchw, s.c, s.h, s.w);
    for (std::int64_t n = 0; n < l.x.dims[0]; ++n) {
      for (std::int64_t c = 0; c < l.x.dims[1]; ++c) {
        for (std::int64_t y = 0; y < l.x.dims[2]; ++y) {
          for (std::int64_t x = 0; x < l.x.dims[3]; ++x) {
            const std::int64_t at =
                n * l.x.strides[0] + c * l.x.strides[1] + y * l.x.strides[2] + x * l.x.strides[3];
            const std::int64_t logical = ((n * s.c + c) * s.h + y) * s.w + x;
            ASSERT_EQ(laid[static_cast<std::size_t>(at)], static_cast<float>(logical))
                << (nhwc ? "NHWC" : "NCHW") << " at " << n << "," << c << "," << y << "," << x;
          }
        }
      }
    }
  }
}

TEST(ConvolutionCudnnGraph, ElementSizeIdsAlignmentAndConvolutionNumbers) {
  const ConvShape s = odd_shape(true);
  const CudnnGraphLayout half = cudnn_graph_layout(s, true);
  const CudnnGraphLayout single = cudnn_graph_layout(s, false);
  for (const CudnnGraphTensor* t : {&half.x, &half.w, &half.y}) EXPECT_EQ(t->element_bytes, 2);
  for (const CudnnGraphTensor* t : {&single.x, &single.w, &single.y}) {
    EXPECT_EQ(t->element_bytes, 4);
    EXPECT_EQ(t->byte_alignment, kCudnnByteAlignment);
  }
  // Distinct ids: the variant pack maps each to its pointer.
  EXPECT_NE(single.x.uid, single.w.uid);
  EXPECT_NE(single.w.uid, single.y.uid);
  EXPECT_NE(single.x.uid, single.y.uid);
  EXPECT_EQ(single.conv.spatial_dims, 2);
  EXPECT_EQ(single.conv.pre_padding, (std::array<std::int64_t, 2>{1, 1}));
  EXPECT_EQ(single.conv.post_padding, (std::array<std::int64_t, 2>{1, 1}));
  EXPECT_EQ(single.conv.strides, (std::array<std::int64_t, 2>{2, 2}));
  EXPECT_EQ(single.conv.dilations, (std::array<std::int64_t, 2>{1, 1}));
}

TEST(ConvolutionCudnnGraph, Fp32LeavesOutTf32AndBothLeaveOutNarrowerArithmetic) {
  CudnnEngineNotes plain;
  EXPECT_EQ(cudnn_engine_excluded(plain, false), "");
  EXPECT_EQ(cudnn_engine_excluded(plain, true), "");
  CudnnEngineNotes tensor;
  tensor.tensor_core = true;
  EXPECT_NE(cudnn_engine_excluded(tensor, false).find("TF32"), std::string::npos);
  EXPECT_EQ(cudnn_engine_excluded(tensor, true), "");  // FP16 rows allow tensor cores
  CudnnEngineNotes down;
  down.down_convert_inputs = true;
  EXPECT_NE(cudnn_engine_excluded(down, true), "");
  EXPECT_NE(cudnn_engine_excluded(down, false), "");
  CudnnEngineNotes reduced;
  reduced.reduced_precision_reduction = true;
  EXPECT_NE(cudnn_engine_excluded(reduced, true), "");
  // Winograd and FFT compute the same sum another way, within the check's tolerance: they stay.
  CudnnEngineNotes winograd;
  winograd.winograd = winograd.fft = winograd.runtime_compiled = true;
  EXPECT_EQ(cudnn_engine_excluded(winograd, false), "");
}

TEST(ConvolutionCudnnGraph, TheRowNamesTheEngineTheModeAndTheRank) {
  CudnnEngineNotes notes;
  notes.winograd = notes.runtime_compiled = true;
  EXPECT_EQ(describe_cudnn_engine(12, "mode A", 1, 9, notes),
            "engine 12 via heuristics mode A (#1 of 9), Winograd, runtime-compiled");
  EXPECT_EQ(describe_cudnn_engine(0, "FALLBACK", 3, 4, CudnnEngineNotes{}),
            "engine 0 via heuristics FALLBACK (#3 of 4)");
  EXPECT_EQ(cudnn_row_variant(true, true), "cudnn-fp16");
  EXPECT_EQ(cudnn_row_variant(false, true), "cudnn-fp32");
  EXPECT_EQ(cudnn_row_variant(true, false), "cudnn-find-fp16");
}

#if defined(THREADLAB_HAVE_CUDA)
TEST(ConvolutionCudnnLibrary, AnAbsentLibrarySaysWhereItLooked) {
  auto library = compute::cudnn_library_at("/nonexistent/threadlab/libcudnn.so.9");
  ASSERT_FALSE(library.is_ok());
  EXPECT_NE(library.message().find("/nonexistent/threadlab/libcudnn.so.9"), std::string::npos)
      << library.message();
  EXPECT_NE(library.message().find("THREADLAB_CUDNN_PATH"), std::string::npos);
}

TEST(ConvolutionCudnnLibrary, ALibraryWithoutCudnnsFunctionsSaysWhichIsMissing) {
  // The C library opens anywhere and has none of cuDNN's functions: a stand-in for a wrong file.
  auto library = compute::cudnn_library_at("libc.so.6");
  ASSERT_FALSE(library.is_ok());
  EXPECT_NE(library.message().find("lacks functions"), std::string::npos) << library.message();
  EXPECT_NE(library.message().find("cudnnGetVersion"), std::string::npos) << library.message();
}

TEST(ConvolutionCudnnLibrary, TheInstalledCudnnFinalizesTheGraphsDescriptors) {
  // No GPU needed: tensors, the convolution and the forward operation need no handle. This checks
  // every attribute's type and value against a real cuDNN; the plans need a GPU (tests/gpu/).
  if (auto library = compute::cudnn_library(); !library) {
    GTEST_SKIP() << "no cuDNN here: " << library.message();
  }
  ASSERT_TRUE(compute::cudnn_graph_api().is_ok()) << compute::cudnn_graph_api().message();
  for (const bool nhwc : {false, true}) {
    for (const bool fp16 : {false, true}) {
      const Status built = compute::cudnn_graph_check_descriptors(odd_shape(nhwc), fp16);
      EXPECT_TRUE(built.is_ok()) << (nhwc ? "NHWC " : "NCHW ") << (fp16 ? "FP16: " : "FP32: ")
                                 << built.message();
    }
  }
}
#endif

}  // namespace
}  // namespace tl::lessons
