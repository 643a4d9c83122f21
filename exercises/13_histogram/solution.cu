// counts[v] = how many elements of values equal v.
__global__ void histogram(Array<const int> values, Array<int> counts, int n, int bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[values[i]], 1);
}
