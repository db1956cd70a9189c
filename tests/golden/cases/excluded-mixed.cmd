excluded-mixed.json --snapshot
