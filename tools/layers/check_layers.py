#!/usr/bin/env python3
"""The include-direction check: every #include of the app, the kernels and the lessons must follow
an edge of the layer table in docs/ARCHITECTURE.md. ALLOWED below is that table, the single source
this check reads; a new edge is a failure until the table (and the document) say it is meant.

    tools/layers/check_layers.py [--root DIR]   check a tree (default: this project)
    tools/layers/check_layers.py --self-test    plant bad includes in a scratch tree: the check must
                                                 fail on each, naming its line

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
    "lessons": {"core", "kernels", "compute", "ext:cuda"},
    "lesson-views": {"core", "kernels", "compute", "render", "lessons", "ui", "ext:imgui"},
    "lesson-texts": set(),
    "lab": {"core", "lab-emulator", "ext:json"},
    # The Lab's emulator path: learners' kernels built by the host compiler, run by the executor.
    "lab-emulator": {"core", "kernels"},
    "exercises": {"core", "lab"},
    "ui": {"core", "kernels", "compute", "render", "platform", "interop", "lab", "lesson-texts",
           "ext:imgui", "ext:gl", "ext:stb"},
    "cli": {"core", "kernels", "compute", "render", "platform", "interop", "lab", "ext:cli11",
            "ext:json"},
    "main": {"ui", "cli"},
}

EXTERNAL = [  # (pattern on the included path, library)
    (r"^imgui", "imgui"), (r"^(glad|GL|EGL|GLFW)/", "gl"), (r"^(cuda|cublas|nvrtc|cudaGL)",
                                                            "cuda"),
    (r"^device_launch_parameters", "cuda"), (r"^CLI/", "cli11"), (r"^stb_", "stb"),
    (r"^md4c", "md4c"), (r"^nlohmann/", "json"), (r"^toml\+\+/", "toml"),
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
                "interop": "interop", "ui": "ui", "cli": "cli", "lab": "lab"}.get(parts[1])
    if parts[0] == "exercises":
        return "exercises"
    if parts[0] == "kernels":
        return "kernels"
    if parts[0] == "lessons":
        if len(parts) == 2:
            return "lesson-texts"
        return "lesson-views" if len(parts) > 3 and parts[2] == "views" else "lessons"
    return None


def resolve(root, including_rel, target):
    """The included file's path relative to the root, searching as the build's include paths do."""
    here = os.path.dirname(including_rel)
    for base in (here, "app", "", "app/ui", "lessons", "exercises"):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate.replace(os.sep, "/")
    return None


def check(root):
    violations = []
    for top in ("app", "kernels", "lessons", "exercises"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                layer = layer_of(rel)
                if layer is None:
                    continue
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
                            if to is None or to == layer:
                                continue
                        if to not in ALLOWED[layer]:
                            violations.append(f"{rel}:{number}: layer {layer} may not include "
                                              f"{to.replace('ext:', 'the library ')} ({target})")
    return violations


def self_test():
    """Plants one bad include per rule in a scratch tree; the check must name each line."""
    planted = {
        "app/core/planted.cpp": '#include <imgui.h>\n',
        "app/ui/planted.cpp": '#include "cli/commands.hpp"\n#include "lessons/04_m/m.hpp"\n',
        "app/compute/planted.cpp": '#include "render/r.hpp"\n',
        "kernels/planted_kernels.hpp": '#include "lessons/04_m/m.hpp"\n',
        "lessons/04_m/m.hpp": '#include "ui/lesson_views.hpp"\n#include <imgui.h>\n',
        "app/cli/commands.hpp": "", "app/render/r.hpp": "", "app/ui/lesson_views.hpp": "",
    }
    expected = ["app/core/planted.cpp:1:", "app/compute/planted.cpp:1:", "lessons/04_m/m.hpp:1:",
                "lessons/04_m/m.hpp:2:", "app/ui/planted.cpp:2:", "kernels/planted_kernels.hpp:1:"]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = check(root)
    expected.append("app/ui/planted.cpp:1:")
    missing = [e for e in expected if not any(v.startswith(e) for v in found)]
    for line in found:
        print("found: " + line)
    if missing:
        print("the check missed: " + ", ".join(missing))
        return 1
    print(f"self-test: all {len(expected)} planted includes were caught")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = argv[argv.index("--root") + 1] if "--root" in argv else \
        os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    violations = check(root)
    for line in violations:
        print(line)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
