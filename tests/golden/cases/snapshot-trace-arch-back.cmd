../../data/record/whatif-naive.json --snapshot --keys 'rR'
