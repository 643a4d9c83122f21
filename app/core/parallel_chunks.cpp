#include "core/parallel_chunks.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace tl {

unsigned for_each_chunk(std::size_t n, unsigned threads, std::size_t min_per_thread,
                        const std::function<void(std::size_t begin, std::size_t end)>& body) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t per_thread = std::max<std::size_t>(min_per_thread, 1);
  threads = static_cast<unsigned>(std::clamp<std::size_t>(n / per_thread, 1, threads));
  if (threads == 1) {
    body(0, n);
    return 1;
  }
  std::vector<std::jthread> workers;
  workers.reserve(threads);
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(n, t * chunk);
    const std::size_t end = std::min(n, begin + chunk);
    workers.emplace_back([&body, begin, end] { body(begin, end); });
  }
  return threads;
}

std::string cpu_threads_note(std::string_view row, unsigned used) {
  return cpu_threads_note(row, used, std::max(1u, std::thread::hardware_concurrency()));
}

std::string cpu_threads_note(std::string_view row, unsigned used, unsigned hardware_threads) {
  const std::string threads = std::to_string(used) + (used == 1 ? " thread" : " threads");
  std::string note = "'" + std::string(row) + "' used " + threads;
  if (used >= hardware_threads) {
    return note + (hardware_threads == 1
                       ? ": this machine reports one hardware thread, so it is the one-thread row "
                         "again"
                       : ", one per hardware thread this machine reports");
  }
  return note + " of this machine's " + std::to_string(hardware_threads) +
         " hardware threads: the work is too small to split further (starting a thread would cost "
         "more than its share)";
}

}  // namespace tl
