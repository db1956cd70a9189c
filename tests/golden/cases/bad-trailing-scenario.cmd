analyze bad-trailing-scenario.json --summary
