analyze default --warp=1 --summary
