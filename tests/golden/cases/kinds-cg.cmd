analyze kinds-cg.json
