record --max-instructions 0 -- ./prog
