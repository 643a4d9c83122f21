#!/usr/bin/env python3
"""The include-direction check: every #include of the app, the kernels, the lessons, the exercises,
the tests and the tools must follow an edge of the layer table in docs/ARCHITECTURE.md. ALLOWED
below is that table, the single source this check reads; a new edge is a failure until the table
(and the document) say it is meant. Inside the lessons' layers, one lesson may include another only
where lessons/CMakeLists.txt declares it (`threadlab_lesson(NN_name USES MM_other)`).

With --target-graph FILE (written by CMake at configure time: one `target -> linked target` a line)
it also fails on a cycle among the build's targets.

    tools/layers/check_layers.py [--root DIR] [--target-graph FILE]
                                                 check a tree (default: this project)
    tools/layers/check_layers.py --self-test    plant bad includes and a cycle in a scratch tree: the
                                                 check must fail on each, naming its line

Exit 0 when clean, 1 with one line per violation: path:line: layer X may not include Y (header).
"""
import os
import re
import sys
import tempfile

# layer -> layers (and external libraries, "ext:<name>") it may include. Its own layer is implied.
ALLOWED = {
    "core": {"ext:md4c", "ext:json", "ext:toml"},
    "kernels": {"core", "ext:cuda"},
    "compute": {"core", "kernels", "ext:cuda"},
    "render": {"core", "ext:gl", "ext:stb"},
    "platform": {"core", "ext:gl"},
    "interop": {"core", "kernels", "compute", "render", "ext:cuda", "ext:gl"},
    # A lesson's own kernels (lessons/NN_name/kernels/): compiled into both executors' libraries,
    # so they build on the shared kernel code alone; nothing below the lessons includes them.
    "lesson-kernels": {"core", "kernels", "ext:cuda"},
    "lessons": {"core", "kernels", "lesson-kernels", "compute", "ext:cuda", "ext:json"},
    "lesson-views": {"core", "kernels", "lesson-kernels", "compute", "render", "lessons", "ui",
                     "ext:imgui", "ext:json"},
    "lesson-texts": set(),
    # lesson-texts: lab/lesson_memory rebuilds a lesson's embedded kernel source with recording.
    "lab": {"core", "lab-emulator", "lesson-texts", "ext:json"},
    # The Lab's emulator path: learners' kernels built by the host compiler, run by the executor.
    "lab-emulator": {"core", "kernels"},
    "exercises": {"core", "lab"},
    # The classroom on the network: the schema, the board, the class server and client (HTTP from
    # cpp-httplib). It knows no lesson: the lessons' parameter checks come in as a function.
    "net": {"core", "ext:json", "ext:httplib"},
    "ui": {"core", "kernels", "compute", "render", "platform", "interop", "lab", "lesson-texts", "net",
           "ext:imgui", "ext:gl", "ext:stb"},
    # lesson-texts: `inspect` reads the embedded compiled listings and the kernels' sources.
    "cli": {"core", "kernels", "compute", "render", "platform", "interop", "lab", "lesson-texts", "net",
            "ext:cli11", "ext:json"},
    "main": {"ui", "cli"},
    # Tests: each suite includes the layers its executable links, and the shared test helpers
    # (any header under tests/). The CLI's tests drive the built program only.
    "tests-core": {"core", "kernels", "lesson-kernels", "compute", "lessons", "lesson-texts", "test-support",
                   "ext:json", "ext:md4c", "ext:toml"},
    "tests-plot": {"core", "test-support", "ext:json"},
    "tests-emulator": {"core", "kernels", "lesson-kernels", "compute", "lessons", "lab", "test-support",
                       "ext:json"},
    "tests-lab": {"core", "lab", "exercises", "test-support", "ext:json"},
    # The class server and client on loopback: they speak HTTP to it directly, as a browser would.
    "tests-net": {"core", "net", "test-support", "ext:json", "ext:httplib"},
    "tests-lab-emulator": {"core", "kernels", "lab-emulator", "test-support"},
    "tests-gl": {"core", "kernels", "lesson-kernels", "compute", "render", "platform", "interop", "lessons",
                 "test-support", "ext:gl", "ext:stb"},
    "tests-gpu": {"core", "kernels", "lesson-kernels", "compute", "render", "platform", "interop", "lessons",
                  "lesson-views", "lesson-texts", "ui", "lab", "exercises", "test-support",
                  "ext:cuda", "ext:gl", "ext:stb", "ext:imgui", "ext:json"},
    "tests-gui": {"core", "kernels", "lesson-kernels", "compute", "render", "platform", "interop", "lessons",
                  "lesson-views", "lesson-texts", "ui", "cli", "lab", "exercises", "test-support", "net",
                  "ext:imgui", "ext:gl", "ext:stb", "ext:json"},
    # The CLI's tests drive the built program; the few that test its own pieces in-process
    # (the ratio table, open_launch) link threadlab_cli and include what it is built on.
    "tests-cli": {"test-support", "core", "compute", "interop", "cli", "ext:json"},
    # The fuzzers take the core's parsers; fuzz_command_line links threadlab_cli for its check.
    "tests-fuzz": {"core", "cli", "net", "test-support"},
    "test-support": {"core", "kernels", "lesson-kernels", "compute", "render", "platform", "interop", "lessons", "ui",
                     "lab", "ext:gl", "ext:cuda", "ext:json", "ext:imgui", "ext:stb"},
    # A lesson's own tests (lessons/NN_name/tests/): on every device as the emulator's suite is
    # built, tests/emulator/ likewise, tests/gpu/ as the GPU suite is.
    # lab: the memory figures of a lesson's kernels (lab/lesson_memory), in tests/emulator/.
    "lesson-tests": {"core", "kernels", "lesson-kernels", "compute", "lessons", "lab",
                     "test-support", "ext:json"},
    "lesson-tests-gpu": {"core", "kernels", "lesson-kernels", "compute", "render", "platform",
                         "interop", "lessons", "test-support", "ext:cuda", "ext:gl", "ext:json"},
    # Tools: the standalone GPU programs build on the kernels alone; the emulator's benchmark times
    # lesson 4 through its runner (no tool names a lesson's kernel set) and the Lab's emulator path.
    "tools-gpu": {"core", "kernels", "lesson-kernels", "ext:cuda"},
    "tools-emulator-bench": {"core", "kernels", "lesson-kernels", "compute", "lessons", "lab-emulator"},
}

# tests/<folder> and tools/<folder> -> their layer. A file there in no folder of this table fails
# the check: a new suite or tool says which layers it may use.
TEST_LAYERS = {"core": "tests-core", "emulator": "tests-emulator", "lab": "tests-lab",
               "lab_emulator": "tests-lab-emulator", "gl": "tests-gl", "gpu": "tests-gpu",
               "gui": "tests-gui", "cli": "tests-cli", "fuzz": "tests-fuzz", "net": "tests-net",
               # the installed package, driven through its CLI like tests/cli
               "package": "tests-cli"}
TOOL_LAYERS = {"gpu": "tools-gpu", "dense_tune": "tools-gpu", "matmul_tune": "tools-gpu",
               "emulator_bench": "tools-emulator-bench"}
LESSON_FOLDER = re.compile(r"^[0-9][0-9]_[a-z0-9_]+$")
LESSON_DECLARATION = re.compile(r"^\s*threadlab_lesson\(\s*([0-9][0-9]_[a-z0-9_]+)([^)]*)\)",
                                re.MULTILINE)

EXTERNAL = [  # (pattern on the included path, library)
    (r"^imgui", "imgui"), (r"^(glad|GL|EGL|GLFW)/", "gl"), (r"^(cuda|cublas|nvrtc|cudaGL)",
                                                            "cuda"),
    (r"^device_launch_parameters", "cuda"), (r"^CLI/", "cli11"), (r"^stb_", "stb"),
    (r"^md4c", "md4c"), (r"^nlohmann/", "json"), (r"^toml\+\+/", "toml"),
    (r"^httplib\.h$", "httplib"),
]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCES = (".cpp", ".hpp", ".cu", ".cuh", ".h")


def layer_of(rel):
    """The layer of a file by its path relative to the root, or None for files outside the layers."""
    parts = rel.split("/")
    if parts[0] == "app":
        if len(parts) > 3 and parts[1] == "lab" and parts[2] == "emulator":
            return "lab-emulator"
        if len(parts) == 2:
            return "main" if parts[1] == "main.cpp" else None
        return {"core": "core", "compute": "compute", "render": "render", "platform": "platform",
                "interop": "interop", "ui": "ui", "cli": "cli", "lab": "lab", "net": "net"}.get(parts[1])
    if parts[0] == "exercises":
        return "exercises"
    if parts[0] == "kernels":
        return "kernels"
    if parts[0] == "lessons":
        if len(parts) == 2:
            return "lesson-texts"
        if len(parts) > 3 and parts[2] == "views":
            return "lesson-views"
        if len(parts) > 3 and parts[2] == "kernels":
            return "lesson-kernels"
        if len(parts) > 3 and parts[2] == "tests":
            return "lesson-tests-gpu" if len(parts) > 4 and parts[3] == "gpu" else "lesson-tests"
        return "lessons"
    if parts[0] == "tests" and len(parts) > 2 and parts[1] == "devices":
        return "test-support"
    if parts[0] == "tests" and len(parts) > 2:
        if parts[1] == "core" and len(parts) > 3 and parts[2] in ("plot", "sweep"):
            return "tests-plot"
        return TEST_LAYERS.get(parts[1], "unknown-tests")
    if parts[0] == "tools" and len(parts) > 3 and parts[1] == "lessons":
        # A scratch lesson's source (tools/lessons/<name>/, which the trial copies to
        # lessons/NN_name/): the layers its files have there.
        return layer_of("lessons/NN_scratch/" + "/".join(parts[3:]))
    if parts[0] == "tools" and len(parts) > 2:
        return TOOL_LAYERS.get(parts[1], "unknown-tools")
    return None


def lesson_of(rel):
    """The lesson folder (NN_name) a file under lessons/ belongs to, or None."""
    parts = rel.split("/")
    if parts[0] == "lessons" and len(parts) > 2 and LESSON_FOLDER.match(parts[1]):
        return parts[1]
    return None


def declared_uses(root):
    """lesson -> the lessons it declares it uses, from lessons/CMakeLists.txt."""
    path = os.path.join(root, "lessons", "CMakeLists.txt")
    uses = {}
    if not os.path.isfile(path):
        return uses
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for match in LESSON_DECLARATION.finditer(text):
        words = match.group(2).split()
        used = set()
        if "USES" in words:
            for word in words[words.index("USES") + 1:]:
                if word.isupper():  # the next keyword: KERNEL_SET, GPU_OPTIONS, ...
                    break
                used.add(word)
        uses[match.group(1)] = used
    return uses


def target_cycles(graph_file):
    """Cycles in a `target -> linked` edge list, each as 'a -> b -> a'."""
    edges = {}
    with open(graph_file, encoding="utf-8") as f:
        for line in f:
            if "->" not in line:
                continue
            source, linked = (part.strip() for part in line.split("->", 1))
            edges.setdefault(source, set()).add(linked)
    cycles, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return cycles


def resolve(root, including_rel, target):
    """The included file's path relative to the root, searching as the build's include paths do."""
    here = os.path.dirname(including_rel)
    for base in (here, "app", "", "app/ui", "lessons", "exercises", "tests"):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate.replace(os.sep, "/")
    return None


def check(root):
    violations = []
    uses = declared_uses(root)
    for top in ("app", "kernels", "lessons", "exercises", "tests", "tools"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                layer = layer_of(rel)
                if layer is None:
                    continue
                if layer in ("unknown-tests", "unknown-tools"):
                    violations.append(f"{rel}:1: {rel.split('/')[0]}/{rel.split('/')[1]} is in no "
                                      f"layer: add it to check_layers.py's table")
                    continue
                if layer.startswith("tests-") and name.endswith((".hpp", ".h", ".cuh")):
                    layer = "test-support"
                own_lesson = lesson_of(rel)
                with open(path, encoding="utf-8", errors="replace") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        target = match.group(2)
                        to = None
                        for pattern, library in EXTERNAL:
                            if re.match(pattern, target):
                                to = "ext:" + library
                                break
                        if to is None:
                            resolved = resolve(root, rel, target)
                            if resolved is None:
                                continue  # the standard library, or a system header
                            to = layer_of(resolved)
                            if to is None:
                                continue
                            if to.startswith("tests-") and resolved.endswith((".hpp", ".h",
                                                                              ".cuh")):
                                to = "test-support"
                            other_lesson = lesson_of(resolved)
                            if (own_lesson and other_lesson and other_lesson != own_lesson and
                                    other_lesson not in uses.get(own_lesson, set())):
                                violations.append(
                                    f"{rel}:{number}: lesson {own_lesson} includes lesson "
                                    f"{other_lesson} ({target}) without declaring it: "
                                    f"threadlab_lesson({own_lesson} USES {other_lesson}) in "
                                    f"lessons/CMakeLists.txt")
                                continue
                            if to == layer:
                                continue
                        if to not in ALLOWED[layer]:
                            violations.append(f"{rel}:{number}: layer {layer} may not include "
                                              f"{to.replace('ext:', 'the library ')} ({target})")
    return violations


def self_test():
    """Plants one bad include per rule, and a target cycle, in a scratch tree; the check must name
    each line."""
    planted = {
        "app/core/planted.cpp": '#include <imgui.h>\n',
        "app/ui/planted.cpp": '#include "cli/commands.hpp"\n#include "lessons/04_m/m.hpp"\n',
        "app/compute/planted.cpp": '#include "render/r.hpp"\n',
        "kernels/planted_kernels.hpp": '#include "lessons/04_m/m.hpp"\n',
        "lessons/04_m/m.hpp": '#include "ui/lesson_views.hpp"\n#include <imgui.h>\n',
        # 05 declares that it uses 04 and includes it: allowed; 06 includes 04 undeclared.
        "lessons/05_n/n.cpp": '#include "lessons/04_m/m.hpp"\n',
        "lessons/06_o/o.cpp": '#include "lessons/04_m/m.hpp"\n',
        "lessons/CMakeLists.txt": "threadlab_lesson(04_m KERNEL_SET m)\n"
                                  "threadlab_lesson(05_n USES 04_m KERNEL_SET n)\n"
                                  "threadlab_lesson(06_o KERNEL_SET o USES 07_p)\n"
                                  "threadlab_lesson(07_p USES 06_o KERNEL_SET p)\n",
        "tests/core/test_planted.cpp": '#include "ui/lesson_views.hpp"\n',
        "tests/cli/test_planted.cpp": '#include "ui/lesson_views.hpp"\n#include "cli_helper.hpp"\n',
        # A lesson's tests: on every device they build as the emulator suite does (no window);
        # its GPU-only tests may use interop.
        "lessons/04_m/tests/test_m.cpp": '#include "ui/lesson_views.hpp"\n',
        "lessons/04_m/tests/gpu/test_m_gpu.cpp": '#include "interop/i.hpp"\n',
        "app/interop/i.hpp": "",
        "tests/cli/cli_helper.hpp": "",
        "tests/newsuite/test_planted.cpp": "",
        "tools/gpu/planted.cu": '#include "lessons/04_m/m.hpp"\n',
        # A lesson's kernels: the shared kernels and compute may not include them, they may not
        # include their lesson's runner code, and the lesson itself may.
        "lessons/04_m/kernels/m_kernels.hpp": '#include "lessons/04_m/m.hpp"\n',
        "kernels/planted_registry.cpp": '#include "lessons/04_m/kernels/m_kernels.hpp"\n',
        "app/compute/planted_gemm.hpp": '#include "lessons/04_m/kernels/m_kernels.hpp"\n',
        "lessons/04_m/m.cpp": '#include "lessons/04_m/kernels/m_kernels.hpp"\n',
        "lessons/07_p/kernels/p.cuh": '#include "lessons/04_m/kernels/m_kernels.hpp"\n',
        # A scratch lesson's source under tools/lessons/ is checked as the lesson it becomes: its
        # kernels may not include the window, its module may include compute.
        "tools/lessons/scratch_q/kernels/q.cuh": '#include "ui/lesson_views.hpp"\n',
        "tools/lessons/scratch_q/module.cpp": '#include "compute/c.hpp"\n',
        "app/compute/c.hpp": "",
        "app/core/c.hpp": "",
        "app/cli/commands.hpp": "", "app/render/r.hpp": "", "app/ui/lesson_views.hpp": "",
    }
    expected = ["app/core/planted.cpp:1:", "app/compute/planted.cpp:1:", "lessons/04_m/m.hpp:1:",
                "lessons/04_m/m.hpp:2:", "app/ui/planted.cpp:2:", "kernels/planted_kernels.hpp:1:",
                "app/ui/planted.cpp:1:", "lessons/06_o/o.cpp:1:", "tests/core/test_planted.cpp:1:",
                "tests/cli/test_planted.cpp:1:", "tests/newsuite/test_planted.cpp:1:",
                "tools/gpu/planted.cu:1:", "lessons/04_m/kernels/m_kernels.hpp:1:",
                "kernels/planted_registry.cpp:1:", "app/compute/planted_gemm.hpp:1:",
                "lessons/07_p/kernels/p.cuh:1:", "tools/lessons/scratch_q/kernels/q.cuh:1:",
                "lessons/04_m/tests/test_m.cpp:1:"]
    allowed = ["lessons/05_n/n.cpp:", "tests/cli/test_planted.cpp:2:", "lessons/04_m/m.cpp:",
               "tools/lessons/scratch_q/module.cpp:", "lessons/04_m/tests/gpu/test_m_gpu.cpp:"]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = check(root)
        graph = os.path.join(root, "targets.txt")
        with open(graph, "w", encoding="utf-8") as f:
            f.write("a -> b\nb -> c\nc -> a\nd -> a\n")
        cycles = target_cycles(graph)
    for line in found:
        print("found: " + line)
    missing = [e for e in expected if not any(v.startswith(e) for v in found)]
    wrongly = [a for a in allowed if any(v.startswith(a) for v in found)]
    if missing:
        print("the check missed: " + ", ".join(missing))
    if wrongly:
        print("the check refused allowed includes: " + ", ".join(wrongly))
    if cycles != ["a -> b -> c -> a"]:
        print(f"the cycle check found {cycles}, not the planted a -> b -> c -> a")
    if missing or wrongly or cycles != ["a -> b -> c -> a"]:
        return 1
    print(f"self-test: all {len(expected)} planted includes and the planted target cycle were "
          "caught; the declared lesson use passed")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = argv[argv.index("--root") + 1] if "--root" in argv else \
        os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    violations = check(root)
    if "--target-graph" in argv:
        graph = argv[argv.index("--target-graph") + 1]
        violations += [f"{graph}: the build's targets link in a cycle: {cycle}"
                       for cycle in target_cycles(graph)]
    for line in violations:
        print(line)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
