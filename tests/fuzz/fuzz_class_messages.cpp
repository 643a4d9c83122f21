// The classroom's messages as the network delivers them (app/net/class_messages, and a class's
// mDNS announcement from class_discovery): any bytes must
// be refused with one line, or parse into a message that passes every check again and survives its
// own round trip. A follower never acts on anything else.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "net/class_discovery.hpp"
#include "net/class_messages.hpp"

namespace {

void trap_unless_one_line(const std::string& message) {
  if (message.empty() || message.find('\n') != std::string::npos) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace tl::net;
  if (auto state = parse_follow_state(text)) {
    if (!check_follow_state(*state)) __builtin_trap();
    auto again = parse_follow_state(to_json(*state));
    if (!again || !(*again == *state)) __builtin_trap();
  } else {
    trap_unless_one_line(state.message());
  }
  if (auto result = parse_lab_result(text)) {
    auto again = parse_lab_result(to_json(*result));
    if (!again || !(*again == *result)) __builtin_trap();
  } else {
    trap_unless_one_line(result.message());
  }
  if (auto join = parse_join_request(text)) {
    auto again = parse_join_request(to_json(*join));
    if (!again || !(*again == *join)) __builtin_trap();
  } else {
    trap_unless_one_line(join.message());
  }
  if (auto share = parse_shared_code(text)) {
    if (!check_shared_code(share->code)) __builtin_trap();
    auto again = parse_shared_code(to_json(*share));
    if (!again || !(*again == *share)) __builtin_trap();
  } else {
    trap_unless_one_line(share.message());
  }
  // A class's mDNS TXT record, one entry a line (class_discovery): read as strictly.
  std::vector<std::string> records;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    records.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (auto announcement = parse_class_txt(records)) {
    auto again = parse_class_txt(class_txt_records(*announcement));
    if (!again || !(*again == *announcement)) __builtin_trap();
  } else {
    trap_unless_one_line(announcement.message());
  }
  if (auto address = parse_join_address(text)) {
    if (!is_join_code(address->code) || address->port < 1 || address->port > 65535)
      __builtin_trap();
  }
  return 0;
}
