analyze ../../data/record/histogram.json --summary --sass
