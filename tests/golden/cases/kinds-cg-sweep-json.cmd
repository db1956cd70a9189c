sweep kinds-cg-scenario.json --json --max-pad 1
