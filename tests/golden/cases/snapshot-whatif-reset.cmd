../../data/record/whatif-naive.json --snapshot --keys 'vj\nF'
