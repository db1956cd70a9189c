analyze excluded-oob.json
