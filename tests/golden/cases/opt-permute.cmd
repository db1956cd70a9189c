analyze --arch sm_80 --summary default --warp 2
