analyze ../../data/record/atomics.json --summary --sass
