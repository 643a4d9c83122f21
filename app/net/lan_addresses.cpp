#include "net/lan_addresses.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

namespace tl::net {

std::vector<std::string> lan_addresses() {
  std::vector<std::string> found;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* address = reinterpret_cast<const sockaddr_in*>(entry->ifa_addr);
    if (inet_ntop(AF_INET, &address->sin_addr, text, sizeof text) == nullptr) continue;
    if (std::string(text).rfind("127.", 0) == 0) continue;
    found.emplace_back(text);
  }
  freeifaddrs(list);
  return found;
}

}  // namespace tl::net
