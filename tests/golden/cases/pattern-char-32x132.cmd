analyze char-32x132
