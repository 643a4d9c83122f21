#pragma once
// A kernel is described once; both executors build its launch function from that description.
//
// The pattern. Each kernel set (one lesson's kernels) has
//   kernels/<set>.cuh            the kernels, CUDA source, each a template over its trace policy
//                                (kernels/trace.cuh): Untraced for the timed kernel, Traced for the
//                                drawn one, so both are the same code;
//   kernels/<set>_launch.inl     the description: one `Kernel` per compiled kernel (the name that
//                                launch errors and the occupancy view use, the template
//                                instantiation, whether it calls __syncthreads(), the dynamic
//                                shared memory it launches with), the set's table of launch
//                                functions (`launch<kSomeKernel>`, plus the few lines that pick an
//                                instantiation at run time, such as a tile size), and the timed
//                                kernels the occupancy view inspects (`symbol(kSomeKernel)`);
//   gpu/<set>_gpu.cu and emulator/<set>_emulated.cpp, each a few lines: include the kernels and
//                                the description inside the executor's namespace (tl::gpu or
//                                tl::emulated) and hand the table to the public function.
// The description names kernels and `launch` unqualified, so the same text means the
// nvcc-compiled kernels and `<<<grid, block, shared>>>` in the first translation unit
// (gpu/gpu_launch.cuh) and the host-compiled kernels run by emu::emulate with the kernel's barrier
// option in the second (emulator/emulated_launch.hpp). Nothing is written twice.
//
// Adding a kernel: write it in its .cuh (with a `Trace trace` last parameter and `trace.wrote(i)`
// if it is drawn), add its `Kernel`s and its table entries to the set's .inl, and a mapping probe
// for the timed/traced pair (kernels/mapping_probe.hpp).

#include <cstddef>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tl::kernels {

// Whether a kernel calls __syncthreads(). The emulator runs such kernels' blocks as fibers that all
// reach each barrier before any passes it; the others take its fast path.
inline constexpr bool kBarriers = true;

// For kernels launched without dynamic shared memory.
constexpr int no_dynamic_shared_bytes() {
  return 0;
}

// One compiled kernel: `function` is one instantiation of a kernel template (in the executor's
// namespace), `name` what launch errors say ("vector_add<<<...>>> failed to launch: ...").
template <class Function>
struct Kernel {
  const char* name;
  Function function;
  bool barriers;
  // Dynamic shared memory the kernel is always launched with.
  int (*dynamic_shared_bytes)();
};

template <class Function>
constexpr Kernel<Function> describe(const char* name, Function function, bool barriers = false,
                                    int (*dynamic_shared_bytes)() = no_dynamic_shared_bytes) {
  return {name, function, barriers, dynamic_shared_bytes};
}

// A compiled kernel by name, as a host-side handle for the CUDA runtime's function queries
// (cudaFuncGetAttributes, the occupancy API): what the occupancy view inspects.
struct KernelSymbol {
  std::string_view name;
  const void* function;
  // Dynamic shared memory the kernel is always launched with: part of its resources, as its
  // static shared memory is. None if null.
  int (*dynamic_shared_bytes)() = nullptr;
  // The name the Compiled tab's listing gives this kernel's compiled symbol, where it is not
  // `name`: compiled::timed_kernel_name of the demangled symbol, the template's arguments as the
  // compiler spells them without the namespace tl::gpu and the trace policy. A kernel that is a
  // template over a type is registered under a name of its own and carries its listing name here
  // ("conv_implicit_gemm_fp16" is "conv_implicit_gemm_fp16<ConvTensorTile<128, 64, 32, 4, 3, 0, 0,
  // 0>>"). Empty: the listing names it `name`. tests/gpu/test_compiled_listing_gpu.cpp finds every
  // registered kernel in the listing by it.
  std::string_view listing_name = {};
};

// The name the Compiled tab's listing gives `symbol` (see KernelSymbol::listing_name).
constexpr std::string_view listing_name(const KernelSymbol& symbol) {
  return symbol.listing_name.empty() ? symbol.name : symbol.listing_name;
}

// The symbol of a described kernel, under `name` where the view spells it otherwise than launch
// errors do ("matmul_tiled<16>" for the kernel launched as "matmul_tiled"), and with
// `listing_name` where the Compiled tab's listing names it otherwise than `name`.
template <class Function>
KernelSymbol symbol(const Kernel<Function>& kernel, const char* name = nullptr,
                    const char* listing_name = nullptr) {
  return {name != nullptr ? name : kernel.name, reinterpret_cast<const void*>(kernel.function),
          kernel.dynamic_shared_bytes, listing_name != nullptr ? listing_name : ""};
}

// How a launch function's arguments become the kernel's. A launch function takes the kernel's
// parameters in order, except its trace policy (the last parameter, when it is a struct): that one
// is built from the trailing arguments, none for Untraced, the record pointers for Traced. So
// `vector_add_traced(config, a, b, c, n, records)` calls `vector_add<Traced>(a, b, c, n,
// Traced{records})` and `vector_add(config, a, b, c, n)` calls `vector_add<Untraced>(a, b, c, n,
// Untraced{})`.
template <class Function>
struct KernelArguments;

template <class... Params>
struct KernelArguments<void (*)(Params...)> {
  using Tuple = std::tuple<Params...>;
  static constexpr std::size_t kCount = sizeof...(Params);
  using Last = std::tuple_element_t<kCount - 1, Tuple>;
  static constexpr bool kHasTrace = std::is_class_v<Last>;

  template <class... Args>
  static Tuple from(Args... args) {
    if constexpr (!kHasTrace) {
      return Tuple{args...};
    } else {
      constexpr std::size_t kData = kCount - 1;
      static_assert(sizeof...(Args) >= kData, "a launch function takes every kernel parameter");
      const std::tuple<Args...> all{args...};
      return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>,
                                                     std::index_sequence<J...>) {
        return Tuple{std::get<I>(all)..., Last{std::get<kData + J>(all)...}};
      }
      (std::make_index_sequence<kData>{}, std::make_index_sequence<sizeof...(Args) - kData>{});
    }
  }
};

}  // namespace tl::kernels
