#pragma once
// The multi-threaded CPU baseline of the elementwise lessons: [0, n) split into one contiguous
// chunk per thread. Few elements run on the calling thread alone, since starting threads would cost
// more than the work.

#include <cstddef>
#include <functional>

namespace tl {

// Runs body(begin, end) over [0, n) on up to `threads` threads (0: every hardware thread), each
// given at least `min_per_thread` elements. Returns the number of threads used.
unsigned for_each_chunk(std::size_t n, unsigned threads, std::size_t min_per_thread,
                        const std::function<void(std::size_t begin, std::size_t end)>& body);

}  // namespace tl
