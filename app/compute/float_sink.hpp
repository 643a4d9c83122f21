#pragma once
// Where kernels write an array of floats that OpenGL then draws (the capstone's decision boundary):
// like a TraceSink, one implementation per backend of the fallback chain (app/interop): the mapped
// GL buffer itself on a GPU with interop, device memory copied back and uploaded on the copy path,
// host memory uploaded on the emulator. The kernels only ever see a pointer.
//
// acquire() and publish() run on the thread whose OpenGL context owns the buffer; the kernels that
// fill the array may run on another thread in between, provided they have finished (the device
// synchronised) before publish().

#include <cstddef>

#include "compute/device.hpp"

namespace tl::compute {

class FloatSink {
 public:
  virtual ~FloatSink() = default;
  // An array of `count` floats that `device`'s kernels may write until publish().
  virtual Result<float*> acquire(Device& device, std::size_t count) = 0;
  // Delivers what was written to its destination; the pointer acquire() gave is invalid after.
  virtual Status publish(Device& device) = 0;
  // Gives the array back without delivering it (nothing was written, or it is no longer wanted).
  virtual void abandon(Device& device) = 0;
};

}  // namespace tl::compute
