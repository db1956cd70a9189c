sweep kinds-cg-scenario.json --max-pad 2
