kernel kinds-ldmatrix-sm50.json
