#include "net/class_discovery.hpp"

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <dlfcn.h>

#include <charconv>
#include <optional>

#include "net/class_messages.hpp"

namespace tl::net {

// Avahi's functions, found with dlsym in the two libraries. The headers give their types; nothing
// links against Avahi, so the app starts (and the Debian package installs) where it is absent.
struct AvahiApi {
  decltype(&avahi_threaded_poll_new) threaded_poll_new = nullptr;
  decltype(&avahi_threaded_poll_get) threaded_poll_get = nullptr;
  decltype(&avahi_threaded_poll_start) threaded_poll_start = nullptr;
  decltype(&avahi_threaded_poll_stop) threaded_poll_stop = nullptr;
  decltype(&avahi_threaded_poll_free) threaded_poll_free = nullptr;
  decltype(&avahi_threaded_poll_lock) threaded_poll_lock = nullptr;
  decltype(&avahi_threaded_poll_unlock) threaded_poll_unlock = nullptr;
  decltype(&avahi_strerror) strerror = nullptr;
  decltype(&avahi_string_list_new_from_array) string_list_new_from_array = nullptr;
  decltype(&avahi_string_list_free) string_list_free = nullptr;
  decltype(&avahi_string_list_get_next) string_list_get_next = nullptr;
  decltype(&avahi_string_list_get_text) string_list_get_text = nullptr;
  decltype(&avahi_string_list_get_size) string_list_get_size = nullptr;
  decltype(&avahi_address_snprint) address_snprint = nullptr;
  decltype(&avahi_alternative_service_name) alternative_service_name = nullptr;
  decltype(&avahi_free) free = nullptr;
  decltype(&avahi_client_new) client_new = nullptr;
  decltype(&avahi_client_free) client_free = nullptr;
  decltype(&avahi_client_errno) client_errno = nullptr;
  decltype(&avahi_entry_group_new) entry_group_new = nullptr;
  decltype(&avahi_entry_group_add_service_strlst) entry_group_add_service_strlst = nullptr;
  decltype(&avahi_entry_group_commit) entry_group_commit = nullptr;
  decltype(&avahi_entry_group_reset) entry_group_reset = nullptr;
  decltype(&avahi_service_browser_new) service_browser_new = nullptr;
  decltype(&avahi_service_resolver_new) service_resolver_new = nullptr;
  decltype(&avahi_service_resolver_free) service_resolver_free = nullptr;
};

namespace {

// Loads both libraries and every symbol, or says which is missing. The handles stay open for the
// process's life: Avahi's thread may still be unwinding when a session ends.
Result<AvahiApi> load_avahi(const DiscoveryOptions& options) {
  const auto unavailable = [](const std::string& why) {
    return Error{
        ErrorKind::kIoError,
        "discovery on the LAN needs Avahi (Debian: avahi-daemon, libavahi-client3): " + why};
  };
  void* common = ::dlopen(options.common_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (common == nullptr) return unavailable(options.common_library + " is not installed");
  void* client = ::dlopen(options.client_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (client == nullptr) return unavailable(options.client_library + " is not installed");
  AvahiApi api;
  std::string missing;
  const auto find = [&](void* library, auto& slot, const char* name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(::dlsym(library, name));
    if (slot == nullptr && missing.empty()) missing = name;
  };
  find(common, api.threaded_poll_new, "avahi_threaded_poll_new");
  find(common, api.threaded_poll_get, "avahi_threaded_poll_get");
  find(common, api.threaded_poll_start, "avahi_threaded_poll_start");
  find(common, api.threaded_poll_stop, "avahi_threaded_poll_stop");
  find(common, api.threaded_poll_free, "avahi_threaded_poll_free");
  find(common, api.threaded_poll_lock, "avahi_threaded_poll_lock");
  find(common, api.threaded_poll_unlock, "avahi_threaded_poll_unlock");
  find(common, api.strerror, "avahi_strerror");
  find(common, api.string_list_new_from_array, "avahi_string_list_new_from_array");
  find(common, api.string_list_free, "avahi_string_list_free");
  find(common, api.string_list_get_next, "avahi_string_list_get_next");
  find(common, api.string_list_get_text, "avahi_string_list_get_text");
  find(common, api.string_list_get_size, "avahi_string_list_get_size");
  find(common, api.address_snprint, "avahi_address_snprint");
  find(common, api.alternative_service_name, "avahi_alternative_service_name");
  find(common, api.free, "avahi_free");
  find(client, api.client_new, "avahi_client_new");
  find(client, api.client_free, "avahi_client_free");
  find(client, api.client_errno, "avahi_client_errno");
  find(client, api.entry_group_new, "avahi_entry_group_new");
  find(client, api.entry_group_add_service_strlst, "avahi_entry_group_add_service_strlst");
  find(client, api.entry_group_commit, "avahi_entry_group_commit");
  find(client, api.entry_group_reset, "avahi_entry_group_reset");
  find(client, api.service_browser_new, "avahi_service_browser_new");
  find(client, api.service_resolver_new, "avahi_service_resolver_new");
  find(client, api.service_resolver_free, "avahi_service_resolver_free");
  if (!missing.empty()) return unavailable("its library has no " + missing + " (another version?)");
  return api;
}

bool plain_text(std::string_view text) {
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> class_txt_records(const ClassAnnouncement& announcement) {
  std::string title = announcement.title.substr(0, 200);
  return {"txtvers=1", "schema=" + std::to_string(announcement.schema), "title=" + title};
}

Result<ClassAnnouncement> parse_class_txt(const std::vector<std::string>& records) {
  const auto refused = [](const std::string& why) {
    return Error{ErrorKind::kParseError, "a class announcement " + why};
  };
  std::optional<int> txtvers;
  std::optional<int> schema;
  ClassAnnouncement out;
  const auto number = [](std::string_view text) -> std::optional<int> {
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
  };
  for (const std::string& record : records) {
    if (record.size() > 255) return refused("has an entry over 255 bytes");
    const auto equals = record.find('=');
    const std::string key = record.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : record.substr(equals + 1);
    if (key == "txtvers") {
      txtvers = number(value);
      if (!txtvers) return refused("has a txtvers that is not a number");
    } else if (key == "schema") {
      schema = number(value);
      if (!schema) return refused("has a schema that is not a number");
    } else if (key == "title") {
      if (value.size() > 200 || !plain_text(value))
        return refused("has a title that is not one line");
      out.title = value;
    }
  }
  if (!txtvers) return refused("has no txtvers");
  if (!schema) return refused("has no schema");
  out.schema = *schema;
  return out;
}

std::string FoundClass::address_prefix() const {
  return host + ":" + std::to_string(port) + "/";
}

// One Avahi client on its own thread, announcing or browsing. Its callbacks run on Avahi's thread;
// what they learn is kept under `mutex` for the window's thread to read.
class AvahiSession {
 public:
  AvahiApi api;
  AvahiThreadedPoll* poll = nullptr;
  AvahiClient* client = nullptr;
  AvahiEntryGroup* group = nullptr;
  // Announcing:
  std::string service;
  int port = 0;
  std::vector<std::string> txt;
  // Browsing:
  mutable std::mutex mutex;
  std::map<std::string, FoundClass> found;
  std::string problem;

  ~AvahiSession() {
    if (poll != nullptr) api.threaded_poll_stop(poll);
    if (client != nullptr) api.client_free(client);  // frees its groups, browsers, resolvers
    if (poll != nullptr) api.threaded_poll_free(poll);
  }

  void set_problem(const std::string& text) {
    std::lock_guard lock(mutex);
    problem = text;
  }

  std::string error_text(int error) const { return api.strerror(error); }

  // Called on Avahi's thread (or inside client_new) as the daemon's state changes.
  static void on_client(AvahiClient* client, AvahiClientState state, void* self) {
    auto* session = static_cast<AvahiSession*>(self);
    if (state == AVAHI_CLIENT_S_RUNNING && !session->service.empty()) session->announce(client);
    if (state == AVAHI_CLIENT_FAILURE) {
      session->set_problem("Avahi stopped: " +
                           session->error_text(session->api.client_errno(client)));
    }
  }

  void announce(AvahiClient* owner) {
    if (group == nullptr) group = api.entry_group_new(owner, &AvahiSession::on_group, this);
    if (group == nullptr) {
      set_problem("Avahi refused the announcement: " + error_text(api.client_errno(owner)));
      return;
    }
    std::vector<const char*> texts;
    for (const std::string& entry : txt) texts.push_back(entry.c_str());
    AvahiStringList* list =
        api.string_list_new_from_array(texts.data(), static_cast<int>(texts.size()));
    int added = api.entry_group_add_service_strlst(
        group, AVAHI_IF_UNSPEC, AVAHI_PROTO_INET, static_cast<AvahiPublishFlags>(0),
        service.c_str(), kServiceType, nullptr, nullptr, static_cast<std::uint16_t>(port), list);
    api.string_list_free(list);
    if (added >= 0) added = api.entry_group_commit(group);
    if (added < 0) set_problem("Avahi refused the announcement: " + error_text(added));
  }

  static void on_group(AvahiEntryGroup* group, AvahiEntryGroupState state, void* self) {
    auto* session = static_cast<AvahiSession*>(self);
    if (state != AVAHI_ENTRY_GROUP_COLLISION) return;
    // Another machine announces this name: Avahi's next one ("... #2"), as its own tools do.
    char* other = session->api.alternative_service_name(session->service.c_str());
    session->service = other;
    session->api.free(other);
    session->api.entry_group_reset(group);
    session->announce(session->client);
  }

  static void on_browse(AvahiServiceBrowser* /*browser*/, AvahiIfIndex interface,
                        AvahiProtocol protocol, AvahiBrowserEvent event, const char* name,
                        const char* type, const char* domain, AvahiLookupResultFlags /*flags*/,
                        void* self) {
    auto* session = static_cast<AvahiSession*>(self);
    if (event == AVAHI_BROWSER_NEW) {
      // Freed in on_resolve; if the daemon refuses, the class is simply not listed.
      session->api.service_resolver_new(session->client, interface, protocol, name, type, domain,
                                        AVAHI_PROTO_INET, static_cast<AvahiLookupFlags>(0),
                                        &AvahiSession::on_resolve, session);
    } else if (event == AVAHI_BROWSER_REMOVE) {
      std::lock_guard lock(session->mutex);
      session->found.erase(name);
    } else if (event == AVAHI_BROWSER_FAILURE) {
      session->set_problem("Avahi stopped browsing: " +
                           session->error_text(session->api.client_errno(session->client)));
    }
  }

  static void on_resolve(AvahiServiceResolver* resolver, AvahiIfIndex /*interface*/,
                         AvahiProtocol /*protocol*/, AvahiResolverEvent event, const char* name,
                         const char* /*type*/, const char* /*domain*/, const char* /*host_name*/,
                         const AvahiAddress* address, std::uint16_t port, AvahiStringList* txt,
                         AvahiLookupResultFlags /*flags*/, void* self) {
    auto* session = static_cast<AvahiSession*>(self);
    if (event == AVAHI_RESOLVER_FOUND && address != nullptr) {
      std::vector<std::string> records;
      for (AvahiStringList* entry = txt; entry != nullptr;
           entry = session->api.string_list_get_next(entry)) {
        records.emplace_back(
            reinterpret_cast<const char*>(session->api.string_list_get_text(entry)),
            session->api.string_list_get_size(entry));
      }
      // Announcements from the network are data: one that does not parse is not listed.
      auto announcement = parse_class_txt(records);
      char host[AVAHI_ADDRESS_STR_MAX] = {};
      session->api.address_snprint(host, sizeof host, address);
      if (announcement && port > 0) {
        FoundClass found{name, host, port, *announcement};
        std::lock_guard lock(session->mutex);
        session->found[name] = std::move(found);
      }
    }
    session->api.service_resolver_free(resolver);
  }
};

namespace {

// A client on a threaded poll, or why there is none (no library, no daemon).
Result<std::unique_ptr<AvahiSession>> open_session(const DiscoveryOptions& options,
                                                   const std::string& service, int port,
                                                   std::vector<std::string> txt) {
  auto api = load_avahi(options);
  if (!api) return api.error();
  auto session = std::make_unique<AvahiSession>();
  session->api = *api;
  session->service = service;
  session->port = port;
  session->txt = std::move(txt);
  session->poll = session->api.threaded_poll_new();
  if (session->poll == nullptr)
    return Error{ErrorKind::kIoError, "Avahi could not start its thread"};
  int error = 0;
  session->client = session->api.client_new(session->api.threaded_poll_get(session->poll),
                                            static_cast<AvahiClientFlags>(0),
                                            &AvahiSession::on_client, session.get(), &error);
  if (session->client == nullptr) {
    std::string why = session->api.strerror(error);
    if (error == AVAHI_ERR_NO_DAEMON) why += " (start it: sudo systemctl start avahi-daemon)";
    return Error{ErrorKind::kIoError, "discovery on the LAN is unavailable: Avahi says: " + why};
  }
  return session;
}

}  // namespace

Result<std::unique_ptr<ClassAnnouncer>> ClassAnnouncer::start(const std::string& service, int port,
                                                              const ClassAnnouncement& announcement,
                                                              const DiscoveryOptions& options) {
  auto session = open_session(options, service, port, class_txt_records(announcement));
  if (!session) return session.error();
  if ((*session)->api.threaded_poll_start((*session)->poll) < 0)
    return Error{ErrorKind::kIoError, "Avahi could not start its thread"};
  std::unique_ptr<ClassAnnouncer> announcer(new ClassAnnouncer());
  announcer->session_ = std::move(*session);
  return announcer;
}

ClassAnnouncer::~ClassAnnouncer() = default;

std::string ClassAnnouncer::problem() const {
  std::lock_guard lock(session_->mutex);
  return session_->problem;
}

Result<std::unique_ptr<ClassBrowser>> ClassBrowser::start(const DiscoveryOptions& options) {
  auto session = open_session(options, {}, 0, {});
  if (!session) return session.error();
  AvahiSession& s = **session;
  if (s.api.service_browser_new(s.client, AVAHI_IF_UNSPEC, AVAHI_PROTO_INET, kServiceType, nullptr,
                                static_cast<AvahiLookupFlags>(0), &AvahiSession::on_browse,
                                &s) == nullptr) {
    return Error{ErrorKind::kIoError,
                 "Avahi refused to browse: " + s.error_text(s.api.client_errno(s.client))};
  }
  if (s.api.threaded_poll_start(s.poll) < 0)
    return Error{ErrorKind::kIoError, "Avahi could not start its thread"};
  std::unique_ptr<ClassBrowser> browser(new ClassBrowser());
  browser->session_ = std::move(*session);
  return browser;
}

ClassBrowser::~ClassBrowser() = default;

std::vector<FoundClass> ClassBrowser::classes() const {
  std::lock_guard lock(session_->mutex);
  std::vector<FoundClass> out;
  for (const auto& [name, found] : session_->found) out.push_back(found);
  return out;
}

std::string ClassBrowser::problem() const {
  std::lock_guard lock(session_->mutex);
  return session_->problem;
}

}  // namespace tl::net
