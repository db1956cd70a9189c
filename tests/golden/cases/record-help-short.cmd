record -h
