diff ../../data/record/whatif-naive.json ../../data/record/whatif-padded.json
