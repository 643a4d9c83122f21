// The window's menu bar: the lessons, the view (presenter mode, theme, full screen), screenshots
// and, while one plays, the demo.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../class_session.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/build_info.hpp"
#include "net/class_discovery.hpp"
#include "panels.hpp"

namespace tl::ui {
namespace {

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) wrapped_tooltip("%s", text);
}

void draw_file_menu(AppController& controller) {
  if (!ImGui::BeginMenu("File")) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  if (ImGui::MenuItem("Screenshot", "F12")) controller.request_screenshot(size.x, size.y);
  tooltip("Saves the whole window as a PNG in your Pictures folder");
  ImGui::Separator();
  if (ImGui::MenuItem("Quit")) controller.request_quit();
  tooltip("Closes ThreadLab; the lesson, theme and window size are remembered");
  ImGui::EndMenu();
}

void draw_lesson_menu(AppController& controller) {
  if (!ImGui::BeginMenu("Lesson")) return;
  const AppState& state = controller.state();
  for (const auto& lesson : lessons::catalog()) {
    const std::string label = std::to_string(lesson.number) + ". " + std::string(lesson.title);
    if (ImGui::MenuItem(label.c_str(), nullptr, lesson.id == state.controls.lesson_id)) {
      controller.select_lesson(std::string(lesson.id));
    }
    tooltip(std::string(lesson.summary).c_str());
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Next step", "Right")) controller.next_step();
  tooltip("Sets the controls of the lesson's next step and launches it, as a clicker does");
  if (ImGui::MenuItem("Previous step", "Left")) controller.previous_step();
  tooltip("Goes back one step");
  ImGui::EndMenu();
}

void draw_view_menu(AppController& controller) {
  if (!ImGui::BeginMenu("View")) return;
  const ClassroomState& c = controller.state().classroom;
  if (ImGui::MenuItem("Presenter mode", "F5", c.presenter)) controller.set_presenter(!c.presenter);
  tooltip(
      "For a projector: everything larger and sharp, high contrast, full screen, advanced "
      "controls hidden");
  float scale = c.presenter_scale;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::SliderFloat("Presenter scale", &scale, classroom::kMinPresenterScale,
                         classroom::kMaxPresenterScale, "%.2f×")) {
    controller.set_presenter_scale(scale);
  }
  tooltip(
      "How much larger presenter mode draws (Ctrl + and Ctrl -); fonts are re-rasterised at "
      "each size");
  // Where the window holds less than asked, the menu says so beside the number it shows.
  if (!c.scale_note.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
    ImGui::TextColored(palette().warning, "%s", c.scale_note.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Dark theme", nullptr, c.theme == classroom::Theme::kDark)) {
    controller.set_theme(classroom::Theme::kDark);
  }
  tooltip("The everyday theme");
  if (ImGui::MenuItem("High-contrast theme", nullptr, c.theme == classroom::Theme::kHighContrast)) {
    controller.set_theme(classroom::Theme::kHighContrast);
  }
  tooltip("Black, white and saturated colours, as presenter mode uses");
  if (ImGui::MenuItem("Full screen", "F11", c.fullscreen)) controller.set_fullscreen(!c.fullscreen);
  tooltip("The window fills the monitor it is on");
  ImGui::Separator();
  if (ImGui::MenuItem("Keyboard shortcuts", "?", c.show_shortcuts)) {
    controller.set_show_shortcuts(!c.show_shortcuts);
  }
  tooltip("Every key ThreadLab answers to");
  ImGui::EndMenu();
}

void draw_demo_menu(AppController& controller) {
  const ClassroomState& c = controller.state().classroom;
  if (!c.demo || !ImGui::BeginMenu("Demo")) return;
  if (ImGui::MenuItem("Pause the waits", nullptr, c.demo->paused)) {
    controller.set_demo_paused(!c.demo->paused);
  }
  tooltip("Stops the timed steps from moving on by themselves; the keys still move");
  if (ImGui::MenuItem("Stop the demo", "Esc")) controller.stop_demo();
  tooltip("Leaves the script; the app stays as the last step left it");
  ImGui::EndMenu();
}

// The About box's title: its popup is opened from the Help menu and drawn at the menu bar's level
// (a popup opened inside a menu would belong to the menu's ID scope and close with it).
constexpr const char* kAboutTitle = "About ThreadLab";

bool draw_help_menu() {
  if (!ImGui::BeginMenu("Help")) return false;
  const bool about = ImGui::MenuItem("About ThreadLab");
  tooltip("The version, the commit and the CUDA toolkit this ThreadLab was built from");
  ImGui::EndMenu();
  return about;
}

void draw_about_box() {
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kAboutTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::Text("ThreadLab %s", std::string(build_info::version()).c_str());
  ImGui::TextUnformatted(
      "Learn CUDA by running real kernels and seeing which thread computed what.");
  ImGui::Separator();
  ImGui::TextColored(palette().muted, "%s", build_info::describe().c_str());
  ImGui::TextColored(palette().muted,
                     "Package: threadlab %s; `threadlab --version` prints the same",
                     std::string(build_info::version()).c_str());
  if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// The Join class… dialog's fields, kept while it is open (UI state of this one popup).
struct JoinDialog {
  bool open_requested = false;
  char address[128] = "";
  char name[64] = "";
  std::string problem;
  // Classes heard on the LAN while the dialog is open (mDNS through Avahi), or why none can be.
  std::unique_ptr<net::ClassBrowser> browser;
  std::string discovery_unavailable;
};
JoinDialog& join_dialog() {
  static JoinDialog dialog;
  return dialog;
}
bool& board_shown() {
  static bool shown = false;
  return shown;
}
// The shared code the presenter opened from the board: which student (number) and exercise.
struct SharedCodeShown {
  std::uint32_t number = 0;
  std::string exercise;
};
std::optional<SharedCodeShown>& shared_code_shown() {
  static std::optional<SharedCodeShown> shown;
  return shown;
}

void draw_class_menu(AppController& controller) {
  if (!ImGui::BeginMenu("Class")) return;
  ClassSession* session = controller.class_session();
  if (session == nullptr) {
    if (ImGui::MenuItem("Host a class")) {
      if (const Status hosted = controller.host_class(class_server_options(8737, {})); !hosted) {
        controller.post(Severity::kError, "No class: " + hosted.message());
      }
    }
    tooltip(
        "Students who join follow your lesson, step, parameters and view; their Lab results come "
        "to your board");
    if (ImGui::MenuItem("Join class…")) join_dialog().open_requested = true;
    tooltip("Follow the teacher's window: type the address their screen shows (HOST:PORT/CODE)");
  } else if (session->presenting()) {
    ImGui::TextUnformatted(session->status_line().c_str());
    ImGui::MenuItem("Show the board", nullptr, &board_shown());
    tooltip("Students × exercises: who passed which exercise, as their Lab checks arrive");
    if (ImGui::MenuItem("Stop the class")) controller.leave_class();
    tooltip("Students keep their windows as they are; the board stays saved for the next class");
  } else {
    ImGui::TextUnformatted(session->status_line().c_str());
    const bool following = session->following();
    if (ImGui::MenuItem(following ? "Step away" : "Rejoin")) session->set_following(!following);
    tooltip(following ? "Explore on your own; the teacher's steps wait until you rejoin"
                      : "Back to where the teacher is now");
    if (ImGui::MenuItem("Leave the class")) controller.leave_class();
  }
  ImGui::EndMenu();
}

void draw_join_dialog(AppController& controller) {
  JoinDialog& dialog = join_dialog();
  if (dialog.open_requested) {
    ImGui::OpenPopup("Join class");
    dialog.open_requested = false;
    // Listening starts with the dialog and stops with it: a local D-Bus call to Avahi's daemon,
    // which answers at once or not at all (no daemon), never the network.
    auto browser = net::ClassBrowser::start();
    dialog.browser = browser ? std::move(*browser) : nullptr;
    dialog.discovery_unavailable = browser ? std::string() : browser.message();
  }
  if (!ImGui::BeginPopupModal("Join class", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    dialog.browser.reset();
    return;
  }
  if (dialog.browser) {
    const std::vector<net::FoundClass> found = dialog.browser->classes();
    ImGui::TextUnformatted(found.empty() ? "Looking for classes on this network…"
                                         : "Classes on this network (then type the code):");
    for (const net::FoundClass& each : found) {
      const std::string label = each.announcement.title + "   " + each.address_prefix();
      if (ImGui::Selectable(label.c_str())) {
        std::snprintf(dialog.address, sizeof dialog.address, "%s", each.address_prefix().c_str());
      }
    }
    if (const std::string problem = dialog.browser->problem(); !problem.empty())
      ImGui::TextColored(palette().warning, "%s", problem.c_str());
  } else {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
    ImGui::TextColored(palette().warning, "%s. Type the address instead.",
                       dialog.discovery_unavailable.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  ImGui::TextUnformatted("The address on the teacher's screen:");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
  ImGui::InputTextWithHint("##address", "192.168.1.20:8737/K7QM2X", dialog.address,
                           sizeof dialog.address);
  ImGui::TextUnformatted("Your name on the teacher's board:");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
  ImGui::InputText("##name", dialog.name, sizeof dialog.name);
  if (!dialog.problem.empty()) ImGui::TextColored(palette().warning, "%s", dialog.problem.c_str());
  if (ImGui::Button("Join")) {
    auto address = net::parse_join_address(dialog.address);
    std::string name = dialog.name;
    if (!address) {
      dialog.problem = address.message();
    } else if (name.size() > net::kMaxNameBytes) {
      dialog.problem = "The name is at most 40 bytes.";
    } else {
      dialog.problem.clear();
      controller.join_class(class_client_options(*address, name));
      dialog.browser.reset();
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) {
    dialog.problem.clear();
    dialog.browser.reset();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// One student's shared code, read-only, in a window of its own (opened from the board's "code").
void draw_shared_code_window(const net::Board& board) {
  std::optional<SharedCodeShown>& shown = shared_code_shown();
  if (!shown) return;
  const net::SharedCode* code = nullptr;
  std::string name;
  for (const auto& [id, student] : board.students) {
    if (student.number != shown->number) continue;
    auto found = student.shared.find(shown->exercise);
    if (found != student.shared.end()) code = &found->second;
    name = student.name.empty() ? "Student " + std::to_string(student.number) : student.name;
  }
  if (code == nullptr) {
    shown.reset();
    return;
  }
  bool open = true;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, ImGui::GetFontSize() * 24),
                           ImGuiCond_FirstUseEver);
  const std::string title = name + " · " + shown->exercise + "###shared_code";
  if (ImGui::Begin(title.c_str(), &open)) {
    ImGui::BeginChild("shared_code_text", ImVec2(0, 0), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::TextUnformatted(code->code.data(), code->code.data() + code->code.size());
    ImGui::EndChild();
  }
  ImGui::End();
  if (!open) shown.reset();
}

// The presenter's board in the app: the same table as the web page, names shown (the app is the
// presenter's own screen; the page for the projector hides them).
void draw_board_window(AppController& controller) {
  ClassSession* session = controller.class_session();
  if (!board_shown() || session == nullptr || !session->presenting()) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, ImGui::GetFontSize() * 16),
                           ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Class board", &board_shown())) {
    ImGui::End();
    return;
  }
  const net::Board board = session->server()->board();
  ImGui::TextUnformatted(session->status_line().c_str());
  const int columns = static_cast<int>(board.exercises.size()) + 1;
  if (columns > 1 &&
      ImGui::BeginTable("board", columns, ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollX)) {
    ImGui::TableSetupColumn("Student");
    for (const std::string& exercise : board.exercises) ImGui::TableSetupColumn(exercise.c_str());
    ImGui::TableHeadersRow();
    std::vector<const net::BoardStudent*> rows;
    for (const auto& [id, student] : board.students) rows.push_back(&student);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->number < b->number; });
    for (const net::BoardStudent* student : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(student->name.empty() ? "(no name)" : student->name.c_str());
      for (const std::string& exercise : board.exercises) {
        ImGui::TableNextColumn();
        // Code the student chose to share: a button that opens it beside the board.
        if (student->shared.contains(exercise)) {
          ImGui::PushID(static_cast<int>(student->number));
          ImGui::PushID(exercise.c_str());
          if (ImGui::SmallButton("code")) shared_code_shown() = {student->number, exercise};
          if (ImGui::IsItemHovered()) wrapped_tooltip("%s", "The code the student shared");
          ImGui::PopID();
          ImGui::PopID();
          ImGui::SameLine();
        }
        auto found = student->results.find(exercise);
        if (found == student->results.end()) continue;
        const net::LabResult& result = found->second;
        if (result.outcome == net::LabOutcome::kPassed) {
          char text[32];
          if (result.kernel_ms > 0 && result.reference_ms > 0) {
            std::snprintf(text, sizeof text, "passed %.2f×",
                          result.kernel_ms / result.reference_ms);
          } else {
            std::snprintf(text, sizeof text, "passed");
          }
          ImGui::TextColored(palette().ok, "%s", text);
        } else {
          ImGui::TextColored(palette().warning, "%s", net::to_string(result.outcome));
          if (ImGui::IsItemHovered() && !result.failed_check.empty()) {
            wrapped_tooltip("%s", result.failed_check.c_str());
          }
        }
      }
    }
    ImGui::EndTable();
  } else if (columns == 1) {
    ImGui::TextUnformatted("No Lab results yet.");
  }
  ImGui::End();
  draw_shared_code_window(board);
}

}  // namespace

void draw_menu_bar(AppController& controller, const Fonts& /*fonts*/) {
  if (!ImGui::BeginMenuBar()) return;
  draw_file_menu(controller);
  draw_lesson_menu(controller);
  draw_view_menu(controller);
  draw_demo_menu(controller);
  draw_class_menu(controller);
  const bool open_about = draw_help_menu();
  draw_join_dialog(controller);
  draw_board_window(controller);
  // Text beside the menus is drawn only where it fits: past the window's edge it would widen the
  // window's content and cost the panels a scroll bar's height (presenter mode at 720p).
  const auto text_if_it_fits = [](const ImVec4& colour, const std::string& text) {
    if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) return false;
    ImGui::TextColored(colour, "%s", text.c_str());
    return true;
  };
  // The join code where the whole room can read it, while presenting a class.
  if (ClassSession* session = controller.class_session();
      session != nullptr && session->presenting()) {
    text_if_it_fits(palette().link, "Join code " + session->server()->code());
  }
  const ClassroomState& c = controller.state().classroom;
  if (c.demo) {
    const std::string title =
        c.demo->script.title.empty() ? c.demo->script.file : c.demo->script.title;
    const std::string where = c.demo->index
                                  ? "step " + std::to_string(*c.demo->index + 1) + " of " +
                                        std::to_string(c.demo->script.steps.size())
                                  : "";
    const std::string paused = c.demo->paused ? " (paused)" : "";
    // The whole line, else where the demo is without its title.
    if (!text_if_it_fits(palette().muted, "Demo: " + title + ", " + where + paused)) {
      text_if_it_fits(palette().muted, where + paused);
    }
  }
  ImGui::EndMenuBar();
  if (open_about) ImGui::OpenPopup(kAboutTitle);
  draw_about_box();
}

}  // namespace tl::ui
