#pragma once
// The addresses students type to reach this machine: its IPv4 addresses other than loopback, as
// the system lists its interfaces (getifaddrs). Empty where it has none (then only loopback works).

#include <string>
#include <vector>

namespace tl::net {

[[nodiscard]] std::vector<std::string> lan_addresses();

}  // namespace tl::net
