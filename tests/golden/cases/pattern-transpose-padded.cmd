analyze transpose-padded
