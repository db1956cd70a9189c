analyze record-bad-format.json --summary
