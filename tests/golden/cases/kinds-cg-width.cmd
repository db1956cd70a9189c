analyze kinds-cg-width.json
