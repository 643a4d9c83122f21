// Lesson 1: C = A + B, one thread per element.
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here.

// Each thread computes its global index from its block's position in the grid and its own position
// in the block. The grid usually has more threads than elements (the last block is not full), so
// threads past the end must do nothing: that is the `if (i < n)` guard.
//
// `trace` is how ThreadLab sees which thread wrote which element: `trace.wrote(i)` records it in
// the kernel it draws, and is an empty call, compiled away, in the kernel it times. Both are this
// very code (kernels/trace.cuh).
template <class Trace>
__global__ void vector_add(const float* a, const float* b, float* c, int n, Trace trace) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
    trace.wrote(i);
  }
}
