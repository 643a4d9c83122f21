#!/usr/bin/env python3
"""One SGD-with-momentum training step of a 2-256-256-2 MLP at batch 4096 in eager PyTorch, timed
the way `threadlab bench --suite perf` times ThreadLab's step (the "training step" row), so the two
can be compared on the same GPU in the same session.

PyTorch is needed here only: ThreadLab itself never depends on it. Run on a machine with a GPU:

    python3 tools/gpu/torch_mlp_step.py [--batch 4096] [--layers 2,256,256,2] [--repeats 200]

It prints the median and the minimum milliseconds per step over `--repeats` steps, each timed with
CUDA events after 20 warm-up steps, in float32 with TF32 off (ThreadLab's kernels are plain
float32), and the same step captured as a CUDA Graph for reference.

With `--threadlab PATH` it also runs `PATH run --lesson training` on the same network, batch and
optimizer in the same session (right after PyTorch's timings, on the same GPU) and prints issue
#39's ratio: PyTorch's CUDA-Graph step over ThreadLab's (target at least 1.5), and the same for
both steps launched kernel by kernel.
"""
import argparse
import re
import statistics
import subprocess
import sys

try:
    import torch
except ImportError:
    sys.exit("torch_mlp_step.py: PyTorch is not installed here (it is only needed for this script)")


def build(widths, device):
    layers = []
    for i, (a, b) in enumerate(zip(widths[:-1], widths[1:])):
        layers.append(torch.nn.Linear(a, b))
        if i + 2 < len(widths):
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers).to(device)


def time_steps(step, repeats):
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


def threadlab_step_ms(executable, batch, widths, repeats):
    """ThreadLab's step, kernel by kernel and as a CUDA Graph (medians, ms), from its own table."""
    hidden = widths[1:-1]
    if len(set(hidden)) != 1 or widths[0] != 2 or widths[-1] != 2:
        sys.exit("torch_mlp_step.py: --threadlab compares 2-H-...-H-2 networks (the lesson's shape)")
    command = [executable, "run", "--lesson", "training", "--batch", str(batch), "--hidden",
               str(hidden[0]), "--depth", str(len(hidden)), "--optimizer", "sgd", "--repeats",
               str(repeats)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"torch_mlp_step.py: {' '.join(command)} failed: {done.stderr.strip()}")

    def row(label, exclude=None):
        for line in done.stdout.splitlines():
            text = line.strip()
            if text.startswith(label) and (exclude is None or exclude not in text):
                found = re.search(r"([0-9.]+) (ms|µs|us)", line)
                if found:
                    value = float(found.group(1))
                    return value if found.group(2) == "ms" else value / 1000.0
        sys.exit(f"torch_mlp_step.py: no '{label}' row in ThreadLab's output:\n{done.stdout}")

    return row("one training step", exclude="CUDA Graph"), row("one training step, captured as a CUDA Graph"), " ".join(command)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--layers", default="2,256,256,2")
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--threadlab", help="ThreadLab's executable: time its step in this run too")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_mlp_step.py: no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device("cuda")
    widths = [int(w) for w in args.layers.split(",")]
    torch.manual_seed(1)
    model = build(widths, device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.rand(args.batch, widths[0], device=device) * 2 - 1
    y = torch.randint(0, widths[-1], (args.batch,), device=device)

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()

    for _ in range(20):
        step()
    torch.cuda.synchronize()
    eager_median, eager_min = time_steps(step, args.repeats)

    # The same step as a CUDA Graph (PyTorch's recipe: warm up on a side stream, then capture).
    graph_median = graph_min = float("nan")
    try:
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                step()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        optimizer.zero_grad(set_to_none=True)
        with torch.cuda.graph(graph):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        for _ in range(20):
            graph.replay()
        graph_median, graph_min = time_steps(graph.replay, args.repeats)
    except Exception as error:  # a PyTorch without graph capture for this optimizer
        print(f"CUDA Graph capture failed: {error}", file=sys.stderr)

    print(f"device: {torch.cuda.get_device_name()}, PyTorch {torch.__version__}")
    print(f"network {args.layers}, batch {args.batch}, SGD momentum 0.9, float32 (TF32 off)")
    print(f"eager step:        median {eager_median:.4f} ms, min {eager_min:.4f} ms")
    print(f"CUDA Graph replay: median {graph_median:.4f} ms, min {graph_min:.4f} ms")
    if args.threadlab:
        ours, ours_graph, command = threadlab_step_ms(args.threadlab, args.batch, widths, 50)
        print(f"ThreadLab ({command}): kernel by kernel {ours:.4f} ms, "
              f"CUDA Graph {ours_graph:.4f} ms (medians)")
        print(f"PyTorch eager / ThreadLab kernel by kernel: {eager_median / ours:.2f}x")
        print(f"PyTorch CUDA Graph / ThreadLab CUDA Graph: {graph_median / ours_graph:.2f}x "
              f"(issue #39's target: at least 1.5x)")


if __name__ == "__main__":
    main()
