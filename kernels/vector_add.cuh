// Lesson 1: C = A + B, one thread per element.
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here.

// Each thread computes its global index from its block's position in the grid and its own position
// in the block. The grid usually has more threads than elements (the last block is not full), so
// threads past the end must do nothing: that is the `if (i < n)` guard.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}

// The traced variant computes the same thing and also records, for the element it wrote, which
// block, thread and SM did it. ThreadLab draws these records; it times only the kernel above.
__global__ void vector_add_traced(const float* a, const float* b, float* c, int n,
                                  tl::TraceRecord* trace) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
    tl::trace_element(trace, i, 0);
  }
}
