gemm-bf16-tile --snapshot --keys vsu
