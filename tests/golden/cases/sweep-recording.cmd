sweep ../../data/record/whatif-naive.json --source ../../gpu/record
