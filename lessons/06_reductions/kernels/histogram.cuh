// The reductions lesson's histograms: count how many of values[0 .. n) fall in each of `bins`
// bins (values are bin numbers, 0 <= values[i] < bins). The host zeroes `counts` first.

constexpr int kHistogramMaxBins = 1024;

// Every element is one atomic on global memory. When the data crowd into a few bins, the atomics
// on those counters queue behind each other.
__global__ void histogram_global(const unsigned int* values, unsigned int* counts, int n,
                                 int bins) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&counts[values[i]], 1u);
  }
  (void)bins;
}

// Each block counts into its own histogram in shared memory (atomics there are much cheaper and
// only the block's threads contend), then adds it to the global one: one global atomic per bin
// per block instead of one per element.
__global__ void histogram_shared(const unsigned int* values, unsigned int* counts, int n,
                                 int bins) {
  __shared__ unsigned int local[kHistogramMaxBins];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[values[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&counts[b], local[b]);
  }
}
