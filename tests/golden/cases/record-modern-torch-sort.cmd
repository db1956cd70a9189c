analyze ../../data/record/modern-torch_sort.json --summary
