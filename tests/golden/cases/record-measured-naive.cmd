analyze ../../data/measured/rec/h100-naive.record.json --summary
