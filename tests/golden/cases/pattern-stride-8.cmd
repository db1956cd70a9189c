analyze stride-8
