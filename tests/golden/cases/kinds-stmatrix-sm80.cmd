analyze kinds-stmatrix-sm80.json
