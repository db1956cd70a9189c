analyze reduction-sequential --warp 6 --json | tail -n 2
