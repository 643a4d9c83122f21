// The board page in a real browser: headless Chromium (Debian's `chromium`) loads /board from a
// loopback server, runs the page's JavaScript against the API, and the DOM it dumps must show the
// students × exercises table: names hidden for the projector, shown with the presenter key, and a
// name that looks like HTML kept as text. Skipped, visibly, where Chromium is not installed
// (scripts/install-deps.sh installs it as an optional package).

#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "headless_chromium.hpp"
#include "net/class_client.hpp"
#include "net/class_server.hpp"

namespace tl::net {
namespace {

using namespace std::chrono_literals;
using net_test::dump_dom;
using net_test::find_chromium;

void post(httplib::Client& http, const std::string& path, const std::string& body) {
  auto answer = http.Post(path, {{"X-Class-Code", "K7QM2X"}}, body, "application/json");
  ASSERT_TRUE(answer);
  ASSERT_EQ(answer->status, 200) << answer->body;
}

TEST(BoardPage, AHeadlessBrowserDrawsTheBoard) {
  std::string chromium = find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "Chromium is not installed (apt-get install chromium)";

  ClassServerOptions options;
  options.bind = "127.0.0.1";
  options.code = "K7QM2X";
  ClassServer server(options);
  ASSERT_TRUE(server.start());
  httplib::Client http("127.0.0.1", server.port());
  LabResult ada;
  ada.student = "studentAAAA1";
  ada.name = "<img src=x onerror=alert(1)>Ada";
  ada.exercise = "vector-add";
  ada.outcome = LabOutcome::kPassed;
  ada.kernel_ms = 1.1;
  ada.reference_ms = 1.0;
  ada.attempt = 1;
  post(http, "/api/v1/result", to_json(ada));
  LabResult bob;
  bob.student = "studentBBBB2";
  bob.name = "Bob";
  bob.exercise = "matmul";
  bob.outcome = LabOutcome::kFailed;
  bob.failed_check = "element 3 is 0, expected 6";
  bob.attempt = 1;
  post(http, "/api/v1/result", to_json(bob));
  // Bob pressed "Share with the teacher": code that looks like HTML, for the presenter's page.
  SharedCode bob_code;
  bob_code.student = "studentBBBB2";
  bob_code.exercise = "matmul";
  bob_code.code = "__global__ void mm() {\n  // </pre><script>alert(2)</script>\n}\n";
  bob_code.attempt = 2;
  post(http, "/api/v1/share", to_json(bob_code));
  FollowState state;
  state.lesson = "vector-add";
  state.step = 2;
  ASSERT_TRUE(server.publish(state));
  ClassClientOptions follower;
  follower.address = {"127.0.0.1", server.port(), "K7QM2X"};
  follower.name = "Cy";
  ClassClient client(follower);
  client.start();
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (server.followers() < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);

  std::string base =
      "http://127.0.0.1:" + std::to_string(server.port()) + "/board?code=K7QM2X&wait_ms=0";
  std::string hidden = dump_dom(chromium, base);
  ASSERT_NE(hidden.find("<tbody id=\"rows\"><tr>"), std::string::npos) << "no rows drawn:\n"
                                                                       << hidden;
  EXPECT_NE(hidden.find("<th>vector-add</th><th>matmul</th>"), std::string::npos) << hidden;
  EXPECT_NE(hidden.find("<th class=\"student\">Student 1</th>"), std::string::npos) << hidden;
  EXPECT_NE(hidden.find("<th class=\"student\">Student 3</th>"), std::string::npos)
      << hidden;  // Cy, no result yet
  EXPECT_NE(hidden.find("✔ 1.10×"), std::string::npos) << hidden;
  EXPECT_NE(hidden.find("title=\"failed: element 3 is 0, expected 6\""), std::string::npos)
      << hidden;
  EXPECT_NE(hidden.find("1 following · 3 students · lesson vector-add, step 3"), std::string::npos)
      << hidden;
  EXPECT_EQ(hidden.find("Ada"), std::string::npos) << "a name on the projector page";
  EXPECT_EQ(hidden.find("Bob"), std::string::npos) << "a name on the projector page";
  EXPECT_EQ(hidden.find("alert(2)"), std::string::npos) << "shared code on the projector page";

  // With the presenter key and names=1: the names, and the one that looks like HTML as text.
  std::string shown = dump_dom(chromium, base + "&key=" + server.presenter_key() + "&names=1");
  EXPECT_NE(shown.find("<th class=\"student\">Bob</th>"), std::string::npos) << shown;
  EXPECT_NE(shown.find("&lt;img src=x onerror=alert(1)&gt;Ada"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("<img"), std::string::npos) << "a student's name became HTML:\n" << shown;
  EXPECT_NE(shown.find("Hide names"), std::string::npos) << shown;
  // Bob's shared code, as text in a <pre> under the table: its HTML escaped, never run.
  EXPECT_NE(shown.find("<summary>Bob · matmul</summary>"), std::string::npos) << shown;
  EXPECT_NE(shown.find("<pre>__global__ void mm() {\n  // &lt;/pre&gt;&lt;script&gt;alert(2)"
                       "&lt;/script&gt;\n}\n</pre>"),
            std::string::npos)
      << shown;
  EXPECT_EQ(shown.find("<script>alert(2)"), std::string::npos) << "shared code became HTML";

  // A page with a wrong code gets nothing but the refusal.
  std::string refused = dump_dom(
      chromium, "http://127.0.0.1:" + std::to_string(server.port()) + "/board?code=WRONG2");
  EXPECT_EQ(refused.find("<table"), std::string::npos) << refused;
  EXPECT_NE(refused.find("wrong or missing join code"), std::string::npos) << refused;
  client.stop();
}

}  // namespace
}  // namespace tl::net
