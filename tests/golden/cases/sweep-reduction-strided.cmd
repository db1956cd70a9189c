sweep reduction-strided --max-pad 2
