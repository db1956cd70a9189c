analyze ../../data/record/modern-histogram256.json --summary --sass
