#pragma once
// The results tabs' models beside the picture: the sweeps and their plot (over sizes or block
// sizes, earlier sweeps faded, the CPU/GPU crossover, the device's measured ceilings as guides on
// a rate axis), the roofline of the last timed run, and the current kernel's occupancy. Starts
// sweeps on the launches' background runner, collects their points, and writes AppState's timing,
// roofline and controls.occupancy; the panels only read them. UI thread only.

#include <map>
#include <string>

#include "app_state.hpp"
#include "core/plot/plot_quantity.hpp"
#include "launch_coordinator.hpp"

namespace tl::ui {

class ResultsModel {
 public:
  // `launches` gives the lesson, the device and the runner; both must outlive the model.
  ResultsModel(AppState& state, LaunchCoordinator& launches) : state_(state), launches_(launches) {}

  // Times every size (kSize) or every block size at the current size (kBlock) in the background,
  // keeping the previous sweep of the same kind, faded, to compare. Refused with a message while
  // measurements run; the caller has made sure nothing else holds the device.
  void start_sweep(SweepKind kind);
  // Once per frame while the runner runs a sweep: its new points and failures, its progress.
  // `running`: the runner's state when the frame began.
  void collect_sweep(bool running);
  // Forgets every sweep (not while one runs).
  void clear_plot();
  // What the plot's y axis shows (kept when the points allow no rate yet, so a link's plot=gflops
  // before its sweep still applies when the points arrive).
  void set_quantity(plot::PlotQuantity quantity);
  // Rebuilds the plot as drawn (the quantities the points allow, the series converted, the
  // ceilings' guides and the notes above them) after the series, the quantity or the ceilings
  // changed.
  void refresh_plot();
  // Rebuilds the roofline where the timed run or the ceilings changed since the last time (cheap
  // to call every frame).
  void refresh_roofline();
  // Rebuilds the Occupancy tab for the current kernel and controls (after they changed).
  void refresh_occupancy();
  // The reference GPU and kernel resources the Occupancy tab models on the emulator; an unknown
  // GPU name or a register count outside 1 to 255 is refused with a message.
  void set_occupancy_model(const OccupancyModelChoice& choice);
  // The device was replaced: its kernels' resources are asked again.
  void forget_kernel_resources();

 private:
  void record_sweep_point(const SweepPoint& point);
  void post(Severity severity, std::string text) {
    post_message(state_, severity, std::move(text));
  }

  AppState& state_;
  LaunchCoordinator& launches_;
  // What the compiler gave each kernel: asked once per kernel (it cannot change while running).
  std::map<std::string, KernelResources, std::less<>> kernel_resources_;
};

}  // namespace tl::ui
