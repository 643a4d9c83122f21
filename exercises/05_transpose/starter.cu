// out = transpose(in): in is rows × cols, out is cols × rows.
__global__ void transpose(Matrix<const float> in, Matrix<float> out, int rows, int cols) {
  // TODO
}
