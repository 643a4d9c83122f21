// Lesson 4's wgmma rungs (lessons/04_matmul/kernels/matmul_wgmma.cuh and matmul_wgmma_tma.cuh),
// compiled by nvcc for sm_90a alone: Hopper's warpgroup instructions exist only in that
// arch-specific target, so this translation unit is a library of its own (kernels/CMakeLists.txt),
// built where the build targets compute capability 9.0.
// lessons/04_matmul/kernels/matmul_tensor_gpu.cu calls it for the "wgmma-fp16", "wgmma-tma-fp16"
// and "wgmma-tma-bf16" rungs.

#include <cuda.h>  // CUtensorMap and the driver's cuTensorMapEncodeTiled, found at run time
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>

#include "kernels/gpu/gpu_launch.cuh"
#include "lessons/04_matmul/kernels/matmul_wgmma_gpu.hpp"

namespace tl::gpu {
// A namespace of its own: lessons/04_matmul/kernels/matmul_mma.cuh (which the wgmma rung includes
// for its copy helpers) also defines a plain kernel, the layout probe, which matmul_tensor_gpu.cu
// compiles.
namespace wgmma_unit {
#include "lessons/04_matmul/kernels/matmul_wgmma_tma.cuh"
}  // namespace wgmma_unit
using wgmma_unit::matmul_wgmma;
using wgmma_unit::matmul_wgmma_tma;
using wgmma_unit::MatmulWgmma;
using wgmma_unit::MatmulWgmmaTma;
using wgmma_unit::mma_async_copies_ok;
using wgmma_unit::WgmmaBf16;
using wgmma_unit::WgmmaFp16;

static_assert(
    MatmulWgmma::BM == 128 && MatmulWgmma::BN == 256 && MatmulWgmma::BK == 64 &&
        MatmulWgmma::THREADS == 256,
    "lessons/04_matmul/kernels/matmul_shapes.hpp plans with the wgmma rung's compiled shape");

int wgmma_shared_bytes() {
  return MatmulWgmma::SHARED_BYTES;
}

int wgmma_tma_shared_bytes() {
  return MatmulWgmmaTma::SHARED_BYTES;
}

template <bool kAsync, class Trace, class Input = WgmmaFp16>
constexpr auto kWgmmaFp16 = describe(Input::kBf16 ? "matmul_wgmma_bf16" : "matmul_wgmma_fp16",
                                     &matmul_wgmma<MatmulWgmma, kAsync, Trace, Input>, kBarriers,
                                     wgmma_shared_bytes);
template <class Input, class Trace>
constexpr auto kWgmmaTma = describe(Input::kBf16 ? "matmul_wgmma_tma_bf16"
                                                 : "matmul_wgmma_tma_fp16",
                                    &matmul_wgmma_tma<MatmulWgmmaTma, Input, Trace>, kBarriers,
                                    wgmma_tma_shared_bytes);

// More than the 48 KiB of shared memory a kernel gets without asking: raised once per
// instantiation, before its first launch or occupancy query.
template <const auto& kernel>
Status allow_shared_memory() {
  static std::once_flag once;
  static cudaError_t result = cudaSuccess;
  std::call_once(once, [] {
    result = cudaFuncSetAttribute(kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  kernel.dynamic_shared_bytes());
  });
  if (result == cudaSuccess) return Status::ok();
  return Error{ErrorKind::kCudaError, std::string(kernel.name) + " could not reserve " +
                                          std::to_string(kernel.dynamic_shared_bytes()) +
                                          " bytes of shared memory: " + cudaGetErrorString(result)};
}
template <bool kAsync, class Trace, class Input = WgmmaFp16>
Status allow_wgmma_shared_memory() {
  return allow_shared_memory<kWgmmaFp16<kAsync, Trace, Input>>();
}

template <class Trace, class Input = WgmmaFp16, class... Records>
Status launch_wgmma(const LaunchConfig& config, const void* a, const void* b, float* c, int m,
                    int n, int k, Records... records) {
  const auto* a16 = static_cast<const unsigned short*>(a);
  const auto* b16 = static_cast<const unsigned short*>(b);
  // 16-byte copies where every row of A and B starts on a 16-byte boundary; element by element
  // otherwise (the same kernel, compiled both ways).
  if (mma_async_copies_ok(a, b, n, k)) {
    TL_RETURN_IF_ERROR((allow_wgmma_shared_memory<true, Trace, Input>()));
    return launch<kWgmmaFp16<true, Trace, Input>>(config, a16, b16, c, m, n, k, records...);
  }
  TL_RETURN_IF_ERROR((allow_wgmma_shared_memory<false, Trace, Input>()));
  return launch<kWgmmaFp16<false, Trace, Input>>(config, a16, b16, c, m, n, k, records...);
}

// The driver's cuTensorMapEncodeTiled, looked up once through the runtime (which ThreadLab links
// statically; the driver library itself is never linked).
using EncodeTiled = decltype(&cuTensorMapEncodeTiled);
Result<EncodeTiled> encode_tiled() {
  static const Result<EncodeTiled> kFound = []() -> Result<EncodeTiled> {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t error = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                               12000, cudaEnableDefault, &found);
    if (error != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
      return Error{ErrorKind::kCudaError,
                   "the TMA rungs need the driver's cuTensorMapEncodeTiled (CUDA 12.0 or newer), "
                   "which this driver does not offer"};
    }
    return reinterpret_cast<EncodeTiled>(function);
  }();
  return kFound;
}

// A row-major rows × cols matrix of 2-byte elements as the copy engine's (cols, rows) tensor,
// copied in boxes of box_cols × box_rows with the 128-byte swizzle; outside the matrix, zeros.
Result<CUtensorMap> tensor_map(const void* base, int rows, int cols, int box_cols, int box_rows,
                               bool bf16) {
  auto encode = encode_tiled();
  if (!encode) return encode.error();
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_bytes[1] = {static_cast<cuuint64_t>(cols) * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result =
      (*encode)(&map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                const_cast<void*>(base), dims, row_bytes, box, element_strides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    return Error{ErrorKind::kCudaError, "cuTensorMapEncodeTiled refused a " + std::to_string(rows) +
                                            " × " + std::to_string(cols) +
                                            " matrix (driver error " +
                                            std::to_string(static_cast<int>(result)) + ")"};
  }
  return map;
}

template <class Input, class Trace, class... Records>
Status launch_wgmma_tma(const LaunchConfig& config, const void* a, const void* b, float* c, int m,
                        int n, int k, Records... records) {
  // The copy engine needs every row to start on a 16-byte boundary; where rows do not, rung 13's
  // element-by-element copies take over, compiled for this input format (the same block tile, so
  // the same grid; its 256 threads instead of 384).
  if (!mma_async_copies_ok(a, b, n, k)) {
    const LaunchConfig rung13{config.grid, {MatmulWgmma::THREADS, 1, 1}};
    return launch_wgmma<Trace, Input>(rung13, a, b, c, m, n, k, records...);
  }
  auto a_map = tensor_map(a, m, k, MatmulWgmmaTma::BK, MatmulWgmmaTma::BM, Input::kBf16);
  if (!a_map) return a_map.error();
  auto b_map = tensor_map(b, k, n, 64, MatmulWgmmaTma::BK, Input::kBf16);
  if (!b_map) return b_map.error();
  TL_RETURN_IF_ERROR((allow_shared_memory<kWgmmaTma<Input, Trace>>()));
  // Persistent: one block per SM (193 KiB of shared memory allow no second), each walking the
  // tiles, so the producer fills the next tile's stages while the consumers store this one's.
  // The lesson's covering grid gives the number of tiles.
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      sms <= 0) {
    return Error{ErrorKind::kCudaError, "could not read the GPU's number of SMs"};
  }
  const std::uint64_t tiles = std::uint64_t{config.grid.x} * config.grid.y;
  const LaunchConfig persistent{
      {static_cast<std::uint32_t>(std::min<std::uint64_t>(tiles, static_cast<std::uint64_t>(sms))),
       1, 1},
      config.block};
  return launch<kWgmmaTma<Input, Trace>>(persistent, *a_map, *b_map, c, m, n, k, records...);
}

}  // namespace tl::gpu

namespace tl::kernels {

Status matmul_wgmma_gpu(const LaunchConfig& config, const void* a, const void* b, float* c, int m,
                        int n, int k, TraceRecord* trace) {
  if (trace == nullptr) return gpu::launch_wgmma<tl::Untraced>(config, a, b, c, m, n, k);
  return gpu::launch_wgmma<tl::Traced>(config, a, b, c, m, n, k, trace);
}

Status matmul_wgmma_tma_gpu(const LaunchConfig& config, bool bf16, const void* a, const void* b,
                            float* c, int m, int n, int k, TraceRecord* trace) {
  using gpu::WgmmaBf16;
  using gpu::WgmmaFp16;
  if (trace == nullptr) {
    return bf16 ? gpu::launch_wgmma_tma<WgmmaBf16, tl::Untraced>(config, a, b, c, m, n, k)
                : gpu::launch_wgmma_tma<WgmmaFp16, tl::Untraced>(config, a, b, c, m, n, k);
  }
  return bf16 ? gpu::launch_wgmma_tma<WgmmaBf16, tl::Traced>(config, a, b, c, m, n, k, trace)
              : gpu::launch_wgmma_tma<WgmmaFp16, tl::Traced>(config, a, b, c, m, n, k, trace);
}

std::vector<KernelSymbol> matmul_wgmma_gpu_symbols() {
  // Their shared memory raised first, else they show 0 blocks per SM.
  (void)gpu::allow_wgmma_shared_memory<true, tl::Untraced>();
  (void)gpu::allow_shared_memory<gpu::kWgmmaTma<gpu::WgmmaFp16, tl::Untraced>>();
  (void)gpu::allow_shared_memory<gpu::kWgmmaTma<gpu::WgmmaBf16, tl::Untraced>>();
  // Each with the name the Compiled tab's listing gives its template instance.
  return {gpu::symbol(gpu::kWgmmaFp16<true, tl::Untraced>, nullptr,
                      "wgmma_unit::matmul_wgmma<wgmma_unit::WgmmaShape<4, true>, true, "
                      "wgmma_unit::WgmmaFp16>"),
          gpu::symbol(gpu::kWgmmaTma<gpu::WgmmaFp16, tl::Untraced>, nullptr,
                      "wgmma_unit::matmul_wgmma_tma<wgmma_unit::WgmmaTmaShape<4, 1>, "
                      "wgmma_unit::WgmmaFp16>"),
          gpu::symbol(gpu::kWgmmaTma<gpu::WgmmaBf16, tl::Untraced>, nullptr,
                      "wgmma_unit::matmul_wgmma_tma<wgmma_unit::WgmmaTmaShape<4, 1>, "
                      "wgmma_unit::WgmmaBf16>")};
}

}  // namespace tl::kernels
