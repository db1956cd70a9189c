analyze transpose-naive --warp 5 --summary
