// c[i] = a[i] + b[i] for every i < n, whatever the grid's size.
__global__ void vector_add_grid_stride(Array<const float> a, Array<const float> b,
                                       Array<float> c, int n) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO: loop from `first`, stepping by the number of threads in the grid.
}
