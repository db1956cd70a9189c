analyze ../../data/record/modern-triton_softmax.json --summary --sass
