analyze hostile-bytes.json --summary
