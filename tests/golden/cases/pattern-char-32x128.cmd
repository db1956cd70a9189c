analyze char-32x128
