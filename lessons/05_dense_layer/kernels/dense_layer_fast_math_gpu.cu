// A compile experiment (lesson 5, "What --use_fast_math makes of the sigmoid"): the element-wise
// sigmoid kernel compiled once more, alone, with nvcc's --use_fast_math (lessons/CMakeLists.txt
// gives this file that option and no other). It is never launched; the Compiled tab and
// `threadlab inspect --lesson dense-layer` show what it became beside dense_sigmoid as built.
// Its own namespace keeps its name apart from the real kernel's: fast_math::dense_sigmoid.

#include "kernels/gpu/gpu_launch.cuh"

namespace tl::gpu::fast_math {
#include "lessons/05_dense_layer/kernels/dense_activation.cuh"

template __global__ void dense_sigmoid<Untraced>(const float*, float*, int, int, Untraced);
}  // namespace tl::gpu::fast_math
