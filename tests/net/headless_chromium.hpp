#pragma once
// Debian's Chromium, headless, as the class board's tests use it: the DOM a page has once its
// scripts ran for a few seconds of the browser's virtual time, in a profile of its own (nothing of
// the user's browser is read or left behind).

#include <string>

namespace tl::net_test {

// The Chromium executable, or empty where none is installed (the tests then skip, saying so).
[[nodiscard]] std::string find_chromium();

// The DOM after the page's scripts ran for about 3 s of virtual time; empty when Chromium could not
// be run. The page must not hold a long poll (the board page's wait_ms=0): virtual time stands
// still while a request is open, so the dump would never come.
[[nodiscard]] std::string dump_dom(const std::string& chromium, const std::string& url);

}  // namespace tl::net_test
