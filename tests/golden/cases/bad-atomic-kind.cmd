analyze bad-atomic-kind.json
