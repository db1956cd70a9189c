kernel tma-64b-ldmatrix
