transpose-naive --snapshot --keys "K"
