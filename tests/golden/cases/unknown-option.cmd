frobnicate --x
