analyze bom-trace.json --summary
