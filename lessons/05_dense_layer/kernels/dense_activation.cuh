// Lesson 5: the activation, y = sigmoid(z), and the element-wise kernel that applies it to Z.
// Included by dense_layer.cuh; compiled once more, alone and with nvcc's --use_fast_math, by
// dense_layer_fast_math_gpu.cu, so that the Compiled tab can show what that option makes of the
// same source.
#pragma once

// ---------------------------------------------------------------------------------------------
// The activation: a __device__ function. Kernels call it like any C++ function; it runs on the
// device, in the calling thread, and cannot be launched from the host on its own.
//
// The textbook formula 1 / (1 + e^-x) overflows e^-x to infinity for x below about -88 and the
// other textbook form e^x / (1 + e^x) gives inf / inf = NaN for x above about 88. Choosing the form
// by the sign of x means expf only ever sees a non-positive argument: it never overflows, the
// result stays in [0, 1] for any finite x, and a tiny result for a very negative x keeps its
// digits instead of collapsing to 1 / infinity. A NaN input stays NaN, so bugs are not hidden.
__device__ __forceinline__ float sigmoid(float x) {
  if (x >= 0.0f) {
    return 1.0f / (1.0f + expf(-x));
  }
  const float e = expf(x);
  return e / (1.0f + e);
}

// 3. Y = sigmoid(Z), element-wise
template <class Trace>
__global__ void dense_sigmoid(const float* Z, float* Y, int batch, int out, Trace trace) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < batch && o < out) {
    Y[r * out + o] = sigmoid(Z[r * out + o]);
    trace.wrote(r * out + o);
  }
}
