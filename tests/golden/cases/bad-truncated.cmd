analyze bad-truncated.json
