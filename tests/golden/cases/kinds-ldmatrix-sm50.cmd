analyze kinds-ldmatrix-sm50.json
