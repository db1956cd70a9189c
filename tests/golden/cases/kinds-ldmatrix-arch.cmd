analyze kinds-ldmatrix-sm50.json --arch sm_70
