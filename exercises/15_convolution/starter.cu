// out = in filtered by the 3 × 3 kernel w (zero outside the image), through a shared halo tile.
#define TILE 16
__global__ void convolution(Matrix<const float> in, Array<const float> w, Matrix<float> out,
                            int rows, int cols) {
  __shared__ float tile[TILE + 2][TILE + 2];
  // TODO: load the 18 × 18 tile (0 outside the image), __syncthreads(), then one output each.
}
