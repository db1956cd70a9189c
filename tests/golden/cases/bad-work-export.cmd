export work-limit-summary.json --svg never-written.svg
