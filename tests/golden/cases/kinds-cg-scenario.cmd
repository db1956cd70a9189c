analyze kinds-cg-scenario.json
