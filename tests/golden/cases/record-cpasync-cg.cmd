analyze ../../data/record/cpasync.json --summary
