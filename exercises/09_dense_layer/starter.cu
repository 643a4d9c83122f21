// y = sigmoid(W x + b): W is rows × cols, x has cols elements, b and y have rows.
__global__ void dense_layer(Matrix<const float> W, Array<const float> x, Array<const float> b,
                            Array<float> y, int rows, int cols) {
  // TODO: one output per thread.
}
