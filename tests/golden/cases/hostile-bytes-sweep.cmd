sweep hostile-bytes.json --max-pad 1
