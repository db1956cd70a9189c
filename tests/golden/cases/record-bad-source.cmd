analyze record-bad-source.json --summary
