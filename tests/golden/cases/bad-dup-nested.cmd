analyze bad-dup-nested.json
