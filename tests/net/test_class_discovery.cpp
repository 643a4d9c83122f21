// Finding a class on the LAN (net/class_discovery): the TXT record a class announces and its strict
// reading, and Avahi absent: discovery says why and nothing else stops. Where Avahi's daemon runs
// (not in CI's container), a class announced here is found by a browser here.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "net/class_discovery.hpp"
#include "net/class_messages.hpp"

namespace tl::net {
namespace {

using namespace std::chrono_literals;

TEST(ClassDiscovery, TheAnnouncementRoundTripsAndCarriesNoCode) {
  const ClassAnnouncement announcement{"ThreadLab class on lab-pc-01", kSchemaVersion};
  const std::vector<std::string> records = class_txt_records(announcement);
  EXPECT_EQ(records, (std::vector<std::string>{"txtvers=1", "schema=1",
                                               "title=ThreadLab class on lab-pc-01"}));
  auto parsed = parse_class_txt(records);
  ASSERT_TRUE(parsed) << parsed.message();
  EXPECT_EQ(*parsed, announcement);
  // A later version's keys are ignored; the order does not matter.
  auto later = parse_class_txt({"title=Room 4", "lang=en", "schema=1", "txtvers=2"});
  ASSERT_TRUE(later) << later.message();
  EXPECT_EQ(later->title, "Room 4");
  // A long title is cut to what the reader accepts.
  auto long_title = parse_class_txt(class_txt_records({std::string(300, 'x'), 1}));
  ASSERT_TRUE(long_title) << long_title.message();
  EXPECT_EQ(long_title->title.size(), 200u);

  FoundClass found{"ThreadLab class on lab-pc-01", "192.168.1.20", 8737, announcement};
  EXPECT_EQ(found.address_prefix(), "192.168.1.20:8737/");
}

TEST(ClassDiscovery, AnAnnouncementFromTheNetworkIsReadStrictly) {
  EXPECT_FALSE(parse_class_txt({"schema=1", "title=x"}));                  // no txtvers
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "title=x"}));                 // no schema
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "schema=one"}));              // not a number
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "schema=-1"}));               // not a version
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "schema=1", "title=a\nb"}));  // two lines
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "schema=1", "title=" + std::string(250, 'x')}));
  EXPECT_FALSE(parse_class_txt({"txtvers=1", "schema=1", std::string(256, 'x')}));
  auto refused = parse_class_txt({});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.message().find("no txtvers"), std::string::npos) << refused.message();
}

TEST(ClassDiscovery, WithoutAvahiDiscoverySaysWhyAndNothingElseStops) {
  DiscoveryOptions absent;
  absent.client_library = "libavahi-client-not-here.so.3";
  auto browser = ClassBrowser::start(absent);
  ASSERT_FALSE(browser);
  EXPECT_NE(browser.message().find("libavahi-client-not-here.so.3 is not installed"),
            std::string::npos)
      << browser.message();
  EXPECT_NE(browser.message().find("avahi-daemon"), std::string::npos) << browser.message();
  auto announcer = ClassAnnouncer::start("ThreadLab class", 8737, {"t", 1}, absent);
  ASSERT_FALSE(announcer);
  EXPECT_NE(announcer.message().find("is not installed"), std::string::npos);
}

// The real library: its daemon runs (then a class announced here is heard here), or discovery says
// that the daemon did not answer. Either way a sentence, never a crash or a hang.
TEST(ClassDiscovery, TheSystemsAvahiFindsALocalClassOrSaysWhyNot) {
  auto browser = ClassBrowser::start();
  if (!browser) {
    const std::string why = browser.message();
    EXPECT_TRUE(why.find("Avahi") != std::string::npos) << why;
    GTEST_SKIP() << "no Avahi here: " << why;
  }
  const std::string service = "ThreadLab test class " + random_join_code(8);
  auto announcer = ClassAnnouncer::start(service, 18737, {"A test class", kSchemaVersion});
  ASSERT_TRUE(announcer) << announcer.message();
  std::optional<FoundClass> heard;
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!heard && std::chrono::steady_clock::now() < deadline) {
    for (const FoundClass& found : (*browser)->classes()) {
      if (found.service == service) heard = found;
    }
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_TRUE(heard) << "the class announced here was not heard; " << (*browser)->problem();
  EXPECT_EQ(heard->port, 18737);
  EXPECT_EQ(heard->announcement.title, "A test class");
}

}  // namespace
}  // namespace tl::net
