sweep hostile-names.json --json --max-pad 2
