// expect: past its end|outside its
__global__ void dense_layer(Matrix<const float> W, Array<const float> x, Array<const float> b,
                            Array<float> y, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= cols) return;  // the outputs number rows, not cols
  float v = b[r];
  for (int k = 0; k < cols; ++k) v += W(r, k) * x[k];
  y[r] = 1.0f / (1.0f + expf(-v));
}
