analyze ../../data/record/transpose-naive.json --summary
