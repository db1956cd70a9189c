analyze ../../data/record/modern-triton_matmul.json --summary
