analyze kinds-cg.json --summary
