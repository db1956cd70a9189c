analyze kinds-cg-bad.json
