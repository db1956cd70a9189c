analyze ../../data/record/transpose-naive.json --summary --warp 0
