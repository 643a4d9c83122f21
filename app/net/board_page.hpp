#pragma once
// The live board as a web page the teacher puts on the projector: plain HTML and JavaScript, no
// library, served by the class server at /board?code=CODE. The page long-polls /api/v1/board and
// redraws students × exercises. Every text from the network goes in through textContent, never
// as HTML, so a student's name cannot put script on the teacher's screen.

#include <string>

namespace tl::net {

// `presenter`: the page was opened with the presenter key, so it offers "Show names".
[[nodiscard]] std::string board_page_html(bool presenter);

}  // namespace tl::net
