#pragma once
// The gradients' sum over GPUs through NCCL (nccl_library.hpp loads it), one communicator per GPU,
// each used from its replica's thread; and the CUDA calls data parallel training needs beyond the
// Device interface. Only built with CUDA (cuda/nccl_all_reduce.cpp); the header keeps CUDA's
// types out.

#include <memory>

#include "core/result.hpp"
#include "gradient_all_reduce.hpp"

namespace tl::lessons {

// CUDA GPUs this process sees (0 without a driver).
int cuda_gpu_count();

// Makes GPU `ordinal` the current device of the calling thread (cudaSetDevice): a replica's thread
// does this before it touches its GPU, since the current device is per host thread.
Status use_gpu_on_this_thread(int ordinal);

// An all-reduce over `gpus` GPUs: replica r on GPU r. Fails (kNoDevice) where NCCL cannot be
// loaded; the communicators are made when each replica joins, on its thread.
Result<std::unique_ptr<GradientAllReduce>> make_nccl_all_reduce(int gpus);

}  // namespace tl::lessons
