analyze kinds-cg.json --json
