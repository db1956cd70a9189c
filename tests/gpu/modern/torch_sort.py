"""torch_sort: PyTorch's own sort of 2^20 floats (CUB's onesweep radix sort, no line info in the
library's kernels: bankscope shows their SASS)."""
import torch


def main():
    torch.manual_seed(0)
    x = torch.randn(1 << 20, device="cuda")
    v, i = torch.sort(x)
    torch.cuda.synchronize()
    print("sorted", bool((v[1:] >= v[:-1]).all().item()))


if __name__ == "__main__":
    main()
