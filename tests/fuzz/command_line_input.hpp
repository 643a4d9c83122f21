#pragma once
// The command-line fuzzer's input format, shared with the test that replays its seed corpus
// (tests/cli/test_check_command_line.cpp): the first byte picks a subcommand, so that every
// mutation lands in one of them rather than in "unknown subcommand", and the bytes after it are
// the arguments, separated by NUL bytes (an argument may hold any other byte, a newline too).
//
// A seed is written as, e.g., printf '\x05--lesson\0vector-add\0--n\0002^20' (5: run).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tl::fuzz {

// Every subcommand a person can type, and none at all (the window; the first byte's last values
// also pass the arguments as they are, so that unknown subcommands and top-level options are
// fuzzed too). The lessons' own commands are listed by name: `train` is the one there is.
inline const std::vector<std::vector<std::string>>& command_prefixes() {
  static const std::vector<std::vector<std::string>> prefixes{
      {"gui"},
      {"demo"},
      {"soak"},
      {"info"},
      {"lessons"},
      {"run"},
      {"bench"},
      {"render"},
      {"lab", "list"},
      {"lab", "starter"},
      {"lab", "solution"},
      {"lab", "statement"},
      {"lab", "run"},
      {"lab", "check"},
      {"lab", "watch"},
      {"lab", "grade"},
      {"train"},
      {"worker"},
      {},
  };
  return prefixes;
}

inline std::vector<std::string> command_line_from_bytes(std::span<const std::uint8_t> bytes) {
  std::vector<std::string> args;
  if (bytes.empty()) return args;
  const auto& prefixes = command_prefixes();
  const std::size_t pick = bytes[0] % (prefixes.size() + 1);
  if (pick < prefixes.size()) args = prefixes[pick];
  std::string arg;
  bool any = false;
  for (std::size_t i = 1; i < bytes.size(); ++i) {
    any = true;
    if (bytes[i] == 0) {
      args.push_back(arg);
      arg.clear();
    } else {
      arg.push_back(static_cast<char>(bytes[i]));
    }
  }
  if (any) args.push_back(arg);
  return args;
}

}  // namespace tl::fuzz
