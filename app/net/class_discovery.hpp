#pragma once
// Finding a class on the LAN by mDNS/DNS-SD where Avahi is present (Debian's avahi-daemon): the
// presenter's app announces `_threadlab._tcp` on its port, and the Join class dialog lists the
// classes it hears. Avahi's client library is loaded at run time (dlopen of libavahi-client.so.3,
// compiled against Debian's libavahi-client-dev headers; docs/ARCHITECTURE.md says why): without
// it, or without its daemon, discovery says why it is unavailable and typing the address still
// works. Nothing here blocks its caller: Avahi's own thread does the work.
//
// The join code is not announced: the address is found on the network, the code is read off the
// teacher's screen, so a laptop on the same LAN but not in the room cannot join by browsing.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tl::net {

inline constexpr const char* kServiceType = "_threadlab._tcp";

// What a class announces besides its address and port: the TXT record's entries.
struct ClassAnnouncement {
  std::string title;  // "ThreadLab class on lab-pc-01", as the Join dialog lists it
  int schema = 0;     // the message schema the class speaks (kSchemaVersion)
  friend bool operator==(const ClassAnnouncement&, const ClassAnnouncement&) = default;
};

// The TXT record's entries ("txtvers=1", "schema=1", "title=..."), each at most 255 bytes.
[[nodiscard]] std::vector<std::string> class_txt_records(const ClassAnnouncement& announcement);
// Reads them back, strictly (an announcement from the network is data like any message): refused
// when txtvers or schema is missing or not a number, a title is over 200 bytes or has control
// characters; unknown keys are ignored (later versions may add some).
[[nodiscard]] Result<ClassAnnouncement> parse_class_txt(const std::vector<std::string>& records);

// One class heard on the LAN.
struct FoundClass {
  std::string service;  // the service's instance name, unique on the LAN
  std::string host;     // its IPv4 address, as typed after --join
  int port = 0;
  ClassAnnouncement announcement;
  // "192.168.1.20:8737/": what the Join dialog fills in; the student adds the code.
  [[nodiscard]] std::string address_prefix() const;
  friend bool operator==(const FoundClass&, const FoundClass&) = default;
};

// Where Avahi's libraries are looked for: the tests name one that is not there to see the
// unavailable path.
struct DiscoveryOptions {
  std::string client_library = "libavahi-client.so.3";
  std::string common_library = "libavahi-common.so.3";
};

class AvahiSession;  // the loaded library, its client and its thread (class_discovery.cpp)

// Announces a class while it lives.
class ClassAnnouncer {
 public:
  // Unavailable (the error says why: no library, no daemon) or announcing `port` as `service`.
  static Result<std::unique_ptr<ClassAnnouncer>> start(const std::string& service, int port,
                                                       const ClassAnnouncement& announcement,
                                                       const DiscoveryOptions& options = {});
  ~ClassAnnouncer();
  ClassAnnouncer(const ClassAnnouncer&) = delete;
  ClassAnnouncer& operator=(const ClassAnnouncer&) = delete;
  // A problem met after starting (a name collision Avahi could not resolve, the daemon gone), or
  // empty.
  [[nodiscard]] std::string problem() const;

 private:
  ClassAnnouncer() = default;
  std::unique_ptr<AvahiSession> session_;
};

// Listens for classes while it lives.
class ClassBrowser {
 public:
  static Result<std::unique_ptr<ClassBrowser>> start(const DiscoveryOptions& options = {});
  ~ClassBrowser();
  ClassBrowser(const ClassBrowser&) = delete;
  ClassBrowser& operator=(const ClassBrowser&) = delete;
  // The classes heard now, by service name; never blocks on the network.
  [[nodiscard]] std::vector<FoundClass> classes() const;
  [[nodiscard]] std::string problem() const;

 private:
  ClassBrowser() = default;
  std::unique_ptr<AvahiSession> session_;
};

}  // namespace tl::net
