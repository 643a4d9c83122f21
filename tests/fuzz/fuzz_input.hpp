#pragma once
// Turning a fuzzer's bytes into the values a target needs, without undefined behaviour.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace tl::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <typename T>
  T take() {
    T value{};
    const std::size_t n = sizeof(T) < size_ ? sizeof(T) : size_;
    if (n > 0) std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }
  // Up to `max` bytes as text, stopping after a '\0' or at the end.
  std::string text(std::size_t max) {
    std::string out;
    while (size_ > 0 && out.size() < max) {
      const char c = static_cast<char>(*data_++);
      --size_;
      if (c == '\0') break;
      out.push_back(c);
    }
    return out;
  }
  std::string rest() { return text(size_); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace tl::fuzz
