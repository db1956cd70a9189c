analyze kinds-cg-only.json --summary
