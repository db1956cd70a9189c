export trace-column-32x32.json --svg /dev/null --warp 0
