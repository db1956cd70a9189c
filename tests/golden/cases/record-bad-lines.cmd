analyze record-bad-lines.json --summary
