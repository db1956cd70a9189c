"""triton_softmax: a row softmax in Triton (fp32, 1024 rows of 1024), the kind of kernel whose
reductions (tl.max, tl.sum) are inlined from triton/language/standard.py: bankscope attributes
their shared-memory instructions to this file's lines through the inline chain."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride + cols, num / den, mask=cols < n_cols)


def main():
    torch.manual_seed(0)
    x = torch.randn(1024, 1024, device="cuda")
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](y, x, x.stride(0), x.shape[1], BLOCK=1024, num_warps=8)
    torch.cuda.synchronize()
    print("softmax max error %.2e" % (y - torch.softmax(x, dim=1)).abs().max().item())


if __name__ == "__main__":
    main()
