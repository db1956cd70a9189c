record --frobnicate -- ./prog
