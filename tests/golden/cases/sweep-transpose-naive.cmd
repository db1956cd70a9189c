sweep transpose-naive
