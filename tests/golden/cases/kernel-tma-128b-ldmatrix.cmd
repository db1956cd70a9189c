kernel tma-128b-ldmatrix
