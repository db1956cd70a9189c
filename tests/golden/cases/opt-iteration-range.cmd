kernel reduction-strided --iteration 99
