#!/usr/bin/env python3
"""PyTorch's conv2d on the convolution lesson's ResNet layer (batch 32, 64 -> 64 channels, 56 x 56,
3 x 3, stride 1, padding 1), FP32 and FP16, in NCHW and channels-last (NHWC), timed the way
`threadlab bench --lesson convolution` times the lesson's rungs and cuDNN, so that the three can be
compared on the same GPU in the same session.

PyTorch is needed here only: ThreadLab itself never depends on it. Run on a machine with a GPU:

    python3 tools/gpu/conv2d_vs_pytorch.py [--batch 32] [--channels 64] [--filters 64]
                                           [--size 56] [--filter 3] [--stride 1] [--pad 1]
                                           [--repeats 100]

It prints, for each precision and layout, the median and minimum milliseconds per call over
`--repeats` calls, each timed with CUDA events after 20 warm-up calls, and the TFLOP/s of the median
(2 * N * K * P * Q * C * R * S flops, as the lesson counts them). FP32 runs with TF32 off
(torch.backends.cudnn.allow_tf32 = False), as the lesson's FP32 cuDNN row does (FMA math only);
torch.backends.cudnn.benchmark = True lets cuDNN pick its fastest algorithm, as the lesson's
cudnnFindConvolutionForwardAlgorithm does. PyTorch's FP16 output is FP16; the lesson's tensor-core
rung writes FP32.
"""
import argparse
import statistics
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


if __name__ == "__main__":
    main()
