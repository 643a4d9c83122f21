// The capstone's tabs. Everything drawn here was computed elsewhere: the curves, the weights and
// the state come from the training session's snapshot, the boundary is a texture the network's
// own probabilities were coloured into on the GPU side of OpenGL (training_live.cpp).

#include "training_panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/color_scheme.hpp"
#include "core/plot/tick_format.hpp"
#include "lessons/09_training/training_data.hpp"
#include "lessons/09_training/training_picture.hpp"
#include "panels/draw_colors.hpp"
#include "training_live.hpp"
#include "widgets/plot_widget.hpp"
#include "widgets/tooltip.hpp"

namespace tl::ui::training_views {
namespace {

void muted(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void error_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.38f, 0.33f, 1.0f));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "step 120 (epoch 6) · loss 0.123 · accuracy 97.5 % · 1.2 s · training"
std::string status_line(const lessons::TrainingSnapshot& s) {
  std::string line = "step " + std::to_string(s.steps);
  if (s.steps_per_epoch > 0) line += " (epoch " + std::to_string(s.epochs) + ")";
  if (!s.loss.empty()) {
    line += " · loss " + fixed(s.loss.back().value, 4) + " · accuracy " +
            fixed(100.0 * s.accuracy.back().value, 1) + " % (data set, step " +
            std::to_string(s.loss.back().step) + ")";
  }
  line += " · " + fixed(s.seconds, 1) + " s · " + std::string(lessons::to_string(s.phase));
  return line;
}

TrainingLive* live_or_note(LessonViewContext& context) {
  TrainingLive* live = training_live(context);
  if (live == nullptr) muted("The training views need the training lesson to be open.");
  return live;
}

void draw_error(const lessons::TrainingSnapshot& s) {
  if (s.phase == lessons::TrainingPhase::kDiverged) {
    error_text("Diverged at step " + std::to_string(s.error_step) + ": " + s.error +
               " Reset starts again from the seed.");
  } else if (s.phase == lessons::TrainingPhase::kFailed) {
    error_text(s.error +
               " Change the fields and press Reset (after an error of the device itself, Launch "
               "first: it resets the device, or moves the app to the emulator).");
  }
}

// A field's label before it, as a form reads ("data [spirals]"): ImGui puts its labels after the
// field, which read as "spirals data 2,32,32,2 layers".
void label_before(const char* label) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
}
// The next labelled field on this line where the label and a field of `width` fit, else on the
// next line.
void next_field(const char* label, float width) {
  ImGui::SameLine(0, ImGui::GetFontSize());
  const float needed = ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x + width;
  if (needed > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
  label_before(label);
}

void draw_controls(TrainingLive& live) {
  const lessons::TrainingSnapshot& s = live.snapshot();
  const bool running = s.phase == lessons::TrainingPhase::kRunning;
  const bool stopped =
      s.phase == lessons::TrainingPhase::kDiverged || s.phase == lessons::TrainingPhase::kFailed;
  if (running) {
    if (ImGui::Button("Pause")) live.pause();
  } else {
    ImGui::BeginDisabled(stopped);
    if (ImGui::Button("Start")) live.start();
    ImGui::EndDisabled();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(running || stopped);
  if (ImGui::Button("Step")) live.step();
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  ImGui::InputInt("steps##per_click", &live.form().steps_per_click, 1, 10);
  live.form().steps_per_click = std::clamp(live.form().steps_per_click, 1, 100000);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) live.reset();
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("A new network from the fields below and their seed");
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(status_line(s).c_str());
  if (!live.device_free()) muted("Waiting for the measurements on this device to finish.");
  draw_error(s);
  if (!live.problem().empty()) error_text(live.problem());

  TrainingForm& form = live.form();
  const float field = ImGui::GetFontSize() * 7;
  const auto names = lessons::training_data_names();
  // Which settings Start uses: the Launch panel beside this one has its own fields (optimizer,
  // batch), which only describe the step that Launch times.
  muted(
      "Start, Step and Reset train with these fields, the Training tab's own. The Launch "
      "panel's fields set the one step that Launch times.");
  label_before("data");
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo("##data", std::string(names[form.data]).c_str())) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (ImGui::Selectable(std::string(names[i]).c_str(), static_cast<int>(i) == form.data)) {
        form.data = static_cast<int>(i);
        // The first and last widths follow the data: its inputs and classes.
        const bool digits = names[i] == "digits";
        const std::size_t first = form.layers.find(','), last = form.layers.rfind(',');
        if (first != std::string::npos && last != first) {
          form.layers = (digits ? "64" : "2") + form.layers.substr(first, last - first) +
                        (digits ? ",10" : ",2");
        }
      }
      if (ImGui::IsItemHovered()) {
        wrapped_tooltip("%s", std::string(lessons::training_data_description(names[i])).c_str());
      }
    }
    ImGui::EndCombo();
  }
  next_field("layers", field * 1.4f);
  char layers[128];
  std::snprintf(layers, sizeof layers, "%s", form.layers.c_str());
  ImGui::SetNextItemWidth(field * 1.4f);
  if (ImGui::InputText("##layers", layers, sizeof layers)) form.layers = layers;
  if (ImGui::IsItemHovered()) {
    wrapped_tooltip("Widths from the inputs to the classes, e.g. 2,256,256,2");
  }
  next_field("batch", field);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("##batch", &form.batch, 0);
  next_field("examples", field);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("##examples", &form.samples, 0);
  label_before("optimizer");
  ImGui::SetNextItemWidth(field);
  const char* optimizers[] = {"sgd (momentum 0.9)", "adam"};
  ImGui::Combo("##optimizer", &form.optimizer, optimizers, 2);
  next_field("learning rate", field);
  ImGui::SetNextItemWidth(field);
  ImGui::InputDouble("##learning rate", &form.learning_rate, 0, 0, "%g");
  next_field("seed", field);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("##seed", &form.seed, 0);
  if (live.form_changed()) {
    ImGui::SameLine();
    muted("changed: Reset applies them");
  }
}

void draw_curves(TrainingLive& live) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float height = std::max(avail.y, ImGui::GetFontSize() * 8);
  const float width = std::floor((avail.x - ImGui::GetStyle().ItemSpacing.x) / 2);
  PlotOptions loss;
  loss.title = "Loss (cross-entropy)";
  loss.x_title = "step";
  loss.y_title = "loss";
  loss.x_axis = {.scale = plot::AxisScale::kLinear, .format = plot::TickFormat::kCount};
  loss.y_axis = {.scale = plot::AxisScale::kLog10, .format = plot::TickFormat::kNumber};
  loss.show_bands = false;
  loss.show_point_markers = false;
  ImGui::BeginChild("loss_plot", {width, height}, false, ImGuiWindowFlags_NoScrollbar);
  PlotWidget("##loss", live.loss_plot_state(), live.loss_series(), {}, loss, {-1, -1});
  ImGui::EndChild();
  ImGui::SameLine();
  PlotOptions accuracy = loss;
  accuracy.title = "Accuracy";
  accuracy.y_title = "% correct";
  accuracy.y_axis = {.scale = plot::AxisScale::kLinear, .format = plot::TickFormat::kNumber};
  ImGui::BeginChild("accuracy_plot", {width, height}, false, ImGuiWindowFlags_NoScrollbar);
  PlotWidget("##accuracy", live.accuracy_plot_state(), live.accuracy_series(), {}, accuracy,
             {-1, -1});
  ImGui::EndChild();
}

void draw_points(const lessons::TrainingData& data, ImVec2 origin, float side) {
  // The training points over the boundary, where it puts the plane: [-extent, extent]².
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float radius = std::clamp(side / 200.0f, 1.5f, 4.0f);
  const double extent = lessons::kPlaneExtent;
  for (int i = 0; i < data.count(); ++i) {
    const double x = data.x[2 * static_cast<std::size_t>(i)];
    const double y = data.x[2 * static_cast<std::size_t>(i) + 1];
    const ImVec2 at{origin.x + static_cast<float>((x / extent + 1.0) * 0.5 * side),
                    origin.y + static_cast<float>((1.0 - y / extent) * 0.5 * side)};
    std::uint8_t rgb[3];
    lessons::class_colour(data.labels[i], rgb);
    draw->AddCircleFilled(at, radius,
                          IM_COL32(rgb[0] * 6 / 10, rgb[1] * 6 / 10, rgb[2] * 6 / 10, 255));
  }
}

}  // namespace

void draw_training_panel(LessonViewContext& context, const Fonts& fonts) {
  TrainingLive* live = live_or_note(context);
  if (live == nullptr) return;
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Training");
  ImGui::PopFont();
  ImGui::SameLine();
  muted("network " +
        (live->snapshot().network.empty() ? std::string("(preparing)") : live->snapshot().network));
  draw_controls(*live);
  draw_curves(*live);
}

void draw_boundary_panel(LessonViewContext& context, const Fonts& fonts) {
  TrainingLive* live = live_or_note(context);
  if (live == nullptr) return;
  const lessons::TrainingSnapshot& s = live->snapshot();
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("Decision boundary");
  ImGui::PopFont();
  if (s.data && !s.data->planar()) {
    muted("The " + s.data->name +
          " are images of 64 pixels, not points in a plane: there is no boundary to draw. The "
          "curves and the weights still show the training.");
    return;
  }
  draw_error(s);
  if (live->boundary_texture() == 0) {
    muted("The network draws its boundary once it is made.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
  ImGui::TextWrapped("after step %lld: %s", static_cast<long long>(live->boundary_step()),
                     live->boundary_path().c_str());
  ImGui::PopStyleColor();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::max(std::floor(std::min(avail.x, avail.y)), 16.0f);
  // In a child of its own ("boundary_image"): the GUI tests find its rectangle there.
  ImGui::BeginChild("boundary_image", {side, side}, false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(live->boundary_texture())),
               {side, side});
  if (s.data) draw_points(*s.data, origin, side);
  ImGui::EndChild();
}

void draw_weights_panel(LessonViewContext& context, const Fonts& fonts) {
  TrainingLive* live = live_or_note(context);
  if (live == nullptr) return;
  const lessons::LayerWeights& layer = live->snapshot().first_layer;
  ImGui::PushFont(fonts.bold);
  ImGui::TextUnformatted("First layer's weights");
  ImGui::PopFont();
  if (layer.neurons == 0) {
    muted("The network is being made.");
    return;
  }
  muted(std::to_string(layer.neurons) + " neurons (columns) × " + std::to_string(layer.inputs) +
        " inputs (rows), the biases in the last row; after step " +
        std::to_string(live->snapshot().steps) + ".");
  // The legend: the signed scale, blue below zero, grey at zero, orange above.
  const float limit = layer.largest_magnitude > 0 ? layer.largest_magnitude : 1.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  {
    const std::string low = plot::format_value(-limit, plot::TickFormat::kNumber, 3);
    const std::string high = "+" + plot::format_value(limit, plot::TickFormat::kNumber, 3);
    ImGui::TextUnformatted(low.c_str());
    ImGui::SameLine();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = font * 10;
    constexpr int kSteps = 32;
    for (int i = 0; i < kSteps; ++i) {
      const float t = -1.0f + 2.0f * (static_cast<float>(i) + 0.5f) / kSteps;
      const float step = width / kSteps;
      draw->AddRectFilled({at.x + step * static_cast<float>(i), at.y},
                          {at.x + step * static_cast<float>(i + 1), at.y + font},
                          to_imgui(diverging_color(t)));
    }
    ImGui::Dummy({width, font});
    ImGui::SameLine();
    ImGui::TextUnformatted(high.c_str());
    ImGui::SameLine();
    muted("(0 is grey)");
  }
  const int rows = layer.inputs + 1;
  // In a child of its own ("weights_map"): the GUI tests find its rectangle there.
  ImGui::BeginChild("weights_map", ImGui::GetContentRegionAvail(), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  draw = ImGui::GetWindowDrawList();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float cell_w = std::max(avail.x / static_cast<float>(layer.neurons), 1.0f);
  const float cell_h = std::clamp(avail.y / static_cast<float>(rows), 1.0f, font * 2);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  for (int r = 0; r < rows; ++r) {
    for (int n = 0; n < layer.neurons; ++n) {
      const float value = r < layer.inputs
                              ? layer.weights[static_cast<std::size_t>(n) * layer.inputs + r]
                              : layer.biases[n];
      const ImVec2 a{origin.x + cell_w * static_cast<float>(n),
                     origin.y + cell_h * static_cast<float>(r)};
      draw->AddRectFilled(a, {a.x + cell_w, a.y + cell_h},
                          to_imgui(diverging_color(std::isfinite(value) ? value / limit : 0.0f)));
    }
  }
  ImGui::Dummy({cell_w * static_cast<float>(layer.neurons), cell_h * static_cast<float>(rows)});
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int n = static_cast<int>((m.x - origin.x) / cell_w);
    const int r = static_cast<int>((m.y - origin.y) / cell_h);
    if (n >= 0 && n < layer.neurons && r >= 0 && r < rows) {
      const float value = r < layer.inputs
                              ? layer.weights[static_cast<std::size_t>(n) * layer.inputs + r]
                              : layer.biases[n];
      const std::string what = r < layer.inputs ? "weight of input " + std::to_string(r) : "bias";
      wrapped_tooltip("neuron %d, %s: %s", n, what.c_str(),
                      plot::format_value(value, plot::TickFormat::kNumber, 4).c_str());
    }
  }
  ImGui::EndChild();
}

}  // namespace tl::ui::training_views
