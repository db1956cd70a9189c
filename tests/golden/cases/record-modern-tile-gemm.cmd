analyze ../../data/record/modern-tile_gemm.json --summary --sass
