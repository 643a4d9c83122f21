#pragma once
// The worker's side of `inspect` (lab_protocol.hpp): NVRTC compiles the learner's kernel for the
// architecture asked, keeping the PTX and ptxas's report, and the toolkit's disassembler, where
// the app found one, turns the cubin into SASS with source lines. Needs NVRTC, never a GPU: the
// emulator's learners see what their kernel compiles to as well.

#include "lab/worker/lab_protocol.hpp"

namespace tl::lab {

[[nodiscard]] InspectReply inspect_learner_kernel(const InspectRequest& request);

// The learner's file and the Lab's prelude named as the learner knows them: NVRTC records them
// under the worker's current folder ("/tmp/threadlab-lab-x1/kernel.cu"), which means nothing to
// them and changes from run to run.
[[nodiscard]] std::string learner_file_names(std::string text);

}  // namespace tl::lab
