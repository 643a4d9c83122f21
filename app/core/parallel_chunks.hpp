#pragma once
// The multi-threaded CPU baseline of the elementwise lessons: [0, n) split into one contiguous
// chunk per thread. Few elements run on the calling thread alone, since starting threads would cost
// more than the work.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace tl {

// Runs body(begin, end) over [0, n) on up to `threads` threads (0: every hardware thread), each
// given at least `min_per_thread` elements. Returns the number of threads used.
unsigned for_each_chunk(std::size_t n, unsigned threads, std::size_t min_per_thread,
                        const std::function<void(std::size_t begin, std::size_t end)>& body);

// The timing panel's note on a multi-threaded CPU row, with the reason for its thread count:
// "'CPU, all threads' used 2 threads, one per hardware thread this machine reports", or, when
// fewer were used than the machine has, that the work was too small to split further.
[[nodiscard]] std::string cpu_threads_note(std::string_view row, unsigned used);
[[nodiscard]] std::string cpu_threads_note(std::string_view row, unsigned used,
                                           unsigned hardware_threads);

}  // namespace tl
