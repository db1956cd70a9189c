analyze record-minimal.json --summary
