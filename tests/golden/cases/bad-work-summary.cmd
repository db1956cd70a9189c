analyze work-limit-summary.json --summary
