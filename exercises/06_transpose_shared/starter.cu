// out = transpose(in) through a shared-memory tile: reads and writes both coalesced.
__global__ void transpose_shared(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  __shared__ float tile[32][33];
  // TODO: 1. load in's tile (guard the edges), 2. __syncthreads(), 3. write out's tile.
}
