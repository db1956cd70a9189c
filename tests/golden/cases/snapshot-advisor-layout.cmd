gemm-bf16-tile --snapshot --keys vs
