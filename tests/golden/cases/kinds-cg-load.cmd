analyze kinds-cg-load.json
