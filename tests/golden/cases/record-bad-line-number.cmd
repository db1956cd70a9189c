analyze record-bad-line-number.json --summary
