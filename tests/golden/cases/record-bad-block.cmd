record --block-index 1,2,3,4 -- ./prog
