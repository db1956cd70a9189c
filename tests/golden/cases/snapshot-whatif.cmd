../../data/record/whatif-naive.json --snapshot --source ../../gpu/record --keys 'vj\n'
