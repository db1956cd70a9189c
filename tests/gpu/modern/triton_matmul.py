"""triton_matmul: Triton's tutorial matmul in fp32 (512x512x512, 64x64x32 tiles, 3 stages): its
tiles are loaded with cp.async.cg (LDGSTS.E.BYPASS.128) and read back for the dot product."""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a)
        y = tl.load(b)
        acc += tl.dot(x, y)
        a += BK * sak
        b += BK * sbk
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc)


def main():
    torch.manual_seed(0)
    n = 512
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    c = torch.empty(n, n, device="cuda")
    grid = (n // 64, n // 64)
    matmul_kernel[grid](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BM=64, BN=64, BK=32, num_warps=4, num_stages=3)
    torch.cuda.synchronize()
    err = (c - a @ b).abs().max().item()
    print("matmul max error %.2e" % err)


if __name__ == "__main__":
    main()
