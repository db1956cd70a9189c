kernel tma-32b-ldmatrix
