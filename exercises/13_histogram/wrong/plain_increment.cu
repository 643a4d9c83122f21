// expect: expected|atomic
__global__ void histogram(Array<const int> values, Array<int> counts, int n, int bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[values[i]] += 1;  // increments race and get lost
}
