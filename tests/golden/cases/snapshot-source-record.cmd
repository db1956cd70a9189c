../../data/record/transpose-naive.json --snapshot --keys 'VS\n'
