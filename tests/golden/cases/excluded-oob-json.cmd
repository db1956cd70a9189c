analyze excluded-oob.json --json
