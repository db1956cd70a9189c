analyze ../../data/measured/rec/h100-hist.record.json --summary
