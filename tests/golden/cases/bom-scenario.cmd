analyze bom-scenario.json --summary
