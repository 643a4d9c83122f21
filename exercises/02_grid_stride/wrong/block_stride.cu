// expect: written by
__global__ void vector_add_grid_stride(Array<const float> a, Array<const float> b,
                                       Array<float> c, int n) {
  // Steps by one block instead of the whole grid: the blocks overlap.
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
    c[i] = a[i] + b[i];
  }
}
