kernel kinds-cg-scenario.json --access 0
