// c[i] = a[i] + b[i] for every i < n, whatever the grid's size.
__global__ void vector_add_grid_stride(Array<const float> a, Array<const float> b,
                                       Array<float> c, int n) {
  const int stride = blockDim.x * gridDim.x;  // threads in the whole grid
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}
