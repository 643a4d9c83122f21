#!/usr/bin/env python3
"""PyTorch's conv2d on the convolution lesson's ResNet layer (batch 32, 64 -> 64 channels, 56 x 56,
3 x 3, stride 1, padding 1), FP32 and FP16, in NCHW and channels-last (NHWC), timed the way
`threadlab bench --lesson convolution` times the lesson's rungs and cuDNN, so that the three can be
compared on the same GPU in the same session.

PyTorch is needed here only: ThreadLab itself never depends on it. Run on a machine with a GPU:

    python3 tools/gpu/conv2d_vs_pytorch.py [--batch 32] [--channels 64] [--filters 64]
                                           [--size 56] [--filter 3] [--stride 1] [--pad 1]
                                           [--repeats 100] [--threadlab build/app/threadlab]

It prints, for each precision and layout, the median and minimum milliseconds per call over
`--repeats` calls, each timed with CUDA events after 20 warm-up calls, and the TFLOP/s of the median
(2 * N * K * P * Q * C * R * S flops, as the lesson counts them). FP32 runs with TF32 off
(torch.backends.cudnn.allow_tf32 = False), as the lesson's FP32 cuDNN row does (FMA math only);
torch.backends.cudnn.benchmark = True lets cuDNN pick its fastest algorithm: PyTorch times the
execution plans of the graph API's heuristics, as the lesson's "cuDNN ... graph API" rows do (its
"cuDNN ... Find" rows are cudnnFindConvolutionForwardAlgorithm's fastest). PyTorch's FP16 output is
FP16, as the lesson's cuDNN FP16 rows; the lesson's tensor-core rung writes FP32.

After PyTorch's lines it runs `threadlab run --lesson convolution` on the same shape in each layout
(the app at --threadlab, build/app/threadlab by default; --threadlab "" leaves it out) and prints
the app's cuDNN rows and notes beside them. Unless THREADLAB_CUDNN_PATH is set already, it points
the app at the cuDNN of PyTorch's wheel, so that both time the same library.
"""
import argparse
import os
import statistics
import subprocess
import sys

try:
    import torch
except ImportError:
    sys.exit("conv2d_vs_pytorch.py: PyTorch is not installed here (it is only needed for this script)")


def time_calls(call, repeats):
    for _ in range(20):
        call()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times)


def pytorch_cudnn_dir():
    """The folder of the cuDNN that PyTorch's wheel loads (nvidia-cudnn-cu*), or None."""
    try:
        import nvidia.cudnn  # the wheel PyTorch depends on

        for folder in nvidia.cudnn.__path__:
            lib = os.path.join(folder, "lib")
            if os.path.exists(os.path.join(lib, "libcudnn.so.9")):
                return lib
    except ImportError:
        pass
    return None


def app_cudnn_rows(args):
    """The app's cuDNN rows and notes for the same layer, NCHW and NHWC, as it prints them."""
    if not args.threadlab:
        return
    if not os.path.exists(args.threadlab):
        print(f"ThreadLab: {args.threadlab} not found (build it, or pass --threadlab PATH)")
        return
    env = dict(os.environ)
    if not env.get("THREADLAB_CUDNN_PATH"):
        folder = pytorch_cudnn_dir()
        if folder:
            env["THREADLAB_CUDNN_PATH"] = folder
    print(f"ThreadLab {args.threadlab}, THREADLAB_CUDNN_PATH={env.get('THREADLAB_CUDNN_PATH', '(unset)')}")
    for layout in ("nchw", "nhwc"):
        command = [args.threadlab, "run", "--lesson", "convolution", "--batch", str(args.batch),
                   "--channels", str(args.channels), "--filters", str(args.filters),
                   "--image-height", str(args.size), "--image-width", str(args.size),
                   "--filter", str(args.filter), "--stride", str(args.stride),
                   "--pad", str(args.pad), "--layout", layout,
                   "--repeats", str(min(args.repeats, 10000))]
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        lines = [line.rstrip() for line in done.stdout.splitlines() if "cuDNN" in line]
        print(f"  ThreadLab {layout.upper()}: {' '.join(command[1:])}")
        if done.returncode != 0:
            print(f"    exit {done.returncode}: {done.stderr.strip()[-500:]}")
        for line in lines:
            print(f"    {line.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--filters", type=int, default=64)
    parser.add_argument("--size", type=int, default=56)
    parser.add_argument("--filter", type=int, default=3)
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--pad", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=100)
    parser.add_argument("--threadlab", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "app", "threadlab"),
        help="the app whose cuDNN rows are printed beside PyTorch's; \"\" leaves them out")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("conv2d_vs_pytorch.py: no CUDA device")
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    device = torch.device("cuda")
    out_side = (args.size + 2 * args.pad - args.filter) // args.stride + 1
    flops = 2.0 * args.batch * args.filters * out_side * out_side * args.channels * args.filter ** 2
    print(f"{torch.cuda.get_device_name(0)}, PyTorch {torch.__version__}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    print(f"conv2d {args.batch}x{args.channels}x{args.size}x{args.size}, {args.filters} filters "
          f"{args.filter}x{args.filter}, stride {args.stride}, pad {args.pad}: "
          f"{flops / 1e9:.2f} GFLOP")
    for dtype, name in ((torch.float32, "FP32"), (torch.float16, "FP16")):
        for layout, memory_format in (("NCHW", torch.contiguous_format),
                                      ("NHWC", torch.channels_last)):
            x = torch.randn(args.batch, args.channels, args.size, args.size, device=device,
                            dtype=dtype).to(memory_format=memory_format)
            w = torch.randn(args.filters, args.channels, args.filter, args.filter, device=device,
                            dtype=dtype).to(memory_format=memory_format)
            call = lambda: torch.nn.functional.conv2d(x, w, stride=args.stride, padding=args.pad)
            median, fastest = time_calls(call, args.repeats)
            print(f"  PyTorch conv2d {name} {layout}: median {median:.4f} ms, min {fastest:.4f} ms, "
                  f"{flops / (median * 1e-3) / 1e12:.1f} TFLOP/s")
    app_cudnn_rows(args)


if __name__ == "__main__":
    main()
