analyze ../../data/record/ldmatrix.json --summary
