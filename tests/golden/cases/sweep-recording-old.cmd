sweep ../../data/record/transpose-naive.json
