analyze transpose-naive
