sweep gemm-bf16-tile --max-pad 8 --json
