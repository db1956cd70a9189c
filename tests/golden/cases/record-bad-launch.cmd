record --launch x -- ./prog
