transpose-naive --snapshot --keys 'K/bs_table\nn'
