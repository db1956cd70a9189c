analyze char-32x129
